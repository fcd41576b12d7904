//! A remote XFCC server's answers, read as hostile input: the one XML walk that refuses
//! document types and foreign entities ([`soap::walk`]), a bounded tree of elements, then the
//! shape each operation's answer must have. A SOAP Fault is the server's word and is kept
//! apart from a document that is not an answer at all (an HTML error page from a proxy, say).

use crate::transport::http::xfcc::MoveResult;
use crate::transport::http::xfcc::soap::{self, Ns, SoapError};

use super::game::RemoteGame;

/// Elements read from one answer at most (a `GetMyGames` of 500 games has about 12,000).
pub const MAX_ELEMENTS: usize = 30_000;
/// Games read from one `GetMyGames` at most.
pub const MAX_GAMES: usize = 1_000;
/// Nesting read at most (an answer needs 6 levels: envelope, body, response, result, game,
/// field).
const MAX_DEPTH: usize = 16;

/// Why an answer was not one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AnswerError {
    /// The server answered with a SOAP Fault: its code and text.
    #[error("the server's fault {code}: {text}")]
    Fault { code: String, text: String },
    /// Not XML this relay reads (a document type, an entity, not UTF-8, malformed).
    #[error("not an XFCC answer: {0}")]
    Xml(SoapError),
    /// XML, but not the answer asked for.
    #[error("not an XFCC answer: {0}")]
    Shape(String),
    #[error("more than {MAX_ELEMENTS} elements in one answer")]
    TooLarge,
}

impl AnswerError {
    /// Whether the server refused the account's name or password (a Fault saying so): the
    /// account waits for its configuration to change, and is not tried again meanwhile.
    pub fn is_authentication(&self) -> bool {
        matches!(self, AnswerError::Fault { text, .. } if text.contains("AuthenticationFailed"))
    }
}

/// An element as read: its namespace, local name, text and children.
#[derive(Debug)]
struct Element {
    ns: Ns,
    name: String,
    text: String,
    children: Vec<Element>,
}

impl Element {
    fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    /// The text of child `name`, if there is one.
    fn field(&self, name: &str) -> Option<&str> {
        self.child(name).map(|c| c.text.as_str())
    }
}

/// The tree as it is built.
#[derive(Default)]
struct Tree {
    /// The open elements, outermost first; the document's root is kept in `root`.
    open: Vec<Element>,
    root: Option<Element>,
    elements: usize,
}

impl soap::Sink for Tree {
    fn open(&mut self, ns: Ns, name: String) -> Result<(), SoapError> {
        if self.open.len() >= MAX_DEPTH {
            return Err(SoapError::TooDeep);
        }
        if self.root.is_some() && self.open.is_empty() {
            return Err(SoapError::Malformed("two documents in one".to_owned()));
        }
        self.elements += 1;
        if self.elements > MAX_ELEMENTS {
            return Err(SoapError::TooManyElements(MAX_ELEMENTS));
        }
        self.open.push(Element {
            ns,
            name,
            text: String::new(),
            children: Vec::new(),
        });
        Ok(())
    }

    fn close(&mut self) {
        let Some(done) = self.open.pop() else { return };
        match self.open.last_mut() {
            Some(parent) => parent.children.push(done),
            None => self.root = Some(done),
        }
    }

    fn text(&mut self, text: &str) -> Result<(), SoapError> {
        match self.open.last_mut() {
            Some(element) => element.text.push_str(text),
            None if text.trim().is_empty() => {}
            None => return Err(SoapError::Malformed("text outside the envelope".to_owned())),
        }
        Ok(())
    }
}

/// The body's one element: a Fault is an error, anything else is the answer's.
fn body_of(bytes: &[u8]) -> Result<Element, AnswerError> {
    let mut tree = Tree::default();
    soap::walk(bytes, &mut tree).map_err(|e| match e {
        SoapError::TooManyElements(_) => AnswerError::TooLarge,
        e => AnswerError::Xml(e),
    })?;
    let root = tree
        .root
        .ok_or_else(|| AnswerError::Shape("an empty document".to_owned()))?;
    if root.ns != Ns::Soap || root.name != "Envelope" {
        return Err(AnswerError::Shape(format!(
            "the document is <{}>, not a SOAP 1.1 Envelope",
            root.name
        )));
    }
    let body = root
        .children
        .into_iter()
        .find(|c| c.ns == Ns::Soap && c.name == "Body")
        .ok_or_else(|| AnswerError::Shape("no soap:Body".to_owned()))?;
    let first = body
        .children
        .into_iter()
        .next()
        .ok_or_else(|| AnswerError::Shape("the body is empty".to_owned()))?;
    if first.ns == Ns::Soap && first.name == "Fault" {
        return Err(AnswerError::Fault {
            code: first.field("faultcode").unwrap_or("").trim().to_owned(),
            text: first.field("faultstring").unwrap_or("").trim().to_owned(),
        });
    }
    Ok(first)
}

/// The `{operation}Result` inside the `{operation}Response` a server answered.
fn result_of(bytes: &[u8], operation: &str) -> Result<Element, AnswerError> {
    let response = body_of(bytes)?;
    let wanted = format!("{operation}Response");
    if response.name != wanted {
        return Err(AnswerError::Shape(format!(
            "<{}> where <{wanted}> was asked for",
            response.name
        )));
    }
    let result = format!("{operation}Result");
    response
        .children
        .into_iter()
        .find(|c| c.name == result)
        .ok_or_else(|| AnswerError::Shape(format!("no <{result}>")))
}

/// The games a `GetMyGames` answer lists.
pub fn games(bytes: &[u8]) -> Result<Vec<RemoteGame>, AnswerError> {
    let result = result_of(bytes, "GetMyGames")?;
    let games: Vec<&Element> = result
        .children
        .iter()
        .filter(|c| c.name == "XfccGame")
        .collect();
    if games.len() > MAX_GAMES {
        return Err(AnswerError::TooLarge);
    }
    games
        .into_iter()
        .map(|g| RemoteGame::from_fields(|name| g.field(name)).map_err(AnswerError::Shape))
        .collect()
}

/// The result a `MakeAMove` answer gives.
pub fn move_result(bytes: &[u8]) -> Result<MoveResult, AnswerError> {
    let result = result_of(bytes, "MakeAMove")?;
    MoveResult::from_name(&result.text).ok_or_else(|| {
        AnswerError::Shape(format!(
            "{:?} is not a MakeAMove result",
            crate::command::text::Logged(result.text.trim())
        ))
    })
}

#[cfg(test)]
mod tests;
