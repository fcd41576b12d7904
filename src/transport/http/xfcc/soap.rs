//! SOAP 1.1 envelopes, read and written.
//!
//! Reading is namespace-aware (quick-xml's `NsReader`): the body's first element is the
//! operation, named by its local name in the XFCC namespace, whatever prefix the client chose
//! (Scid declares a default namespace, scidCommunity an `ns:` prefix). A document type
//! declaration or an entity other than XML's five and character references is refused, never
//! expanded; nesting is limited; the text must be UTF-8.
//!
//! Writing follows what .NET servers send, byte for byte where clients look: Scid finds its
//! answers with regular expressions before it parses them.

use quick_xml::NsReader;
use quick_xml::escape::partial_escape;
use quick_xml::events::Event;
use quick_xml::name::{Namespace, ResolveResult};

/// The XFCC namespace.
pub const XFCC_NS: &str = "http://www.bennedik.com/webservices/XfccBasic";
/// SOAP 1.1's envelope namespace.
pub const SOAP_NS: &str = "http://schemas.xmlsoap.org/soap/envelope/";

/// The deepest nesting read (an envelope needs 4 levels: envelope, body, operation, field).
pub const MAX_DEPTH: usize = 16;
/// Fields read from one operation at most.
const MAX_FIELDS: usize = 64;

/// An operation called: its element's local name and its fields (child elements) as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub operation: String,
    pub fields: Vec<(String, String)>,
}

impl Call {
    /// The text of field `name`, if sent.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why an envelope is refused (the SOAP Fault's text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SoapError {
    #[error("the request is not UTF-8")]
    NotUtf8,
    #[error("document type declarations are not accepted")]
    Doctype,
    #[error("entity &{0}; is not accepted (only XML's own and character references)")]
    Entity(String),
    #[error("XML nested deeper than {MAX_DEPTH} elements")]
    TooDeep,
    #[error("more than {MAX_FIELDS} fields in one operation")]
    TooManyFields,
    /// A document with more elements than its reader takes (the number).
    #[error("more than {0} elements in one document")]
    TooManyElements(usize),
    #[error("not a SOAP 1.1 envelope: {0}")]
    NotSoap(String),
    #[error("malformed XML: {0}")]
    Malformed(String),
}

/// Where an element's name is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ns {
    Soap,
    Xfcc,
    /// No namespace (an unqualified field).
    None,
    Other,
}

impl Ns {
    fn of(resolved: &ResolveResult<'_>) -> Ns {
        match resolved {
            ResolveResult::Bound(Namespace(ns)) if *ns == SOAP_NS => Ns::Soap,
            ResolveResult::Bound(Namespace(ns)) if *ns == XFCC_NS => Ns::Xfcc,
            ResolveResult::Unbound => Ns::None,
            _ => Ns::Other,
        }
    }
}

/// The envelope as it is read.
#[derive(Default)]
struct Reading {
    /// The open elements' namespaces and local names, outermost first.
    stack: Vec<(Ns, String)>,
    seen_body: bool,
    operation: Option<String>,
    fields: Vec<(String, String)>,
    /// The field being read: its name and text so far.
    field: Option<(String, String)>,
}

impl Reading {
    fn open(&mut self, ns: Ns, name: String) -> Result<(), SoapError> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(SoapError::TooDeep);
        }
        let parent = self.stack.last().map(|(ns, n)| (*ns, n.as_str()));
        match (self.stack.len(), parent) {
            (0, _) if ns == Ns::Soap && name == "Envelope" => {}
            (0, _) => {
                return Err(SoapError::NotSoap(format!(
                    "the document is <{name}>, not a SOAP 1.1 Envelope"
                )));
            }
            (1, _) if ns == Ns::Soap && name == "Body" => {
                if self.seen_body {
                    return Err(SoapError::NotSoap("two soap:Body elements".to_owned()));
                }
                self.seen_body = true;
            }
            (2, Some((Ns::Soap, "Body"))) => {
                if self.operation.is_some() {
                    return Err(SoapError::NotSoap(
                        "more than one operation in the body".to_owned(),
                    ));
                }
                if ns != Ns::Xfcc {
                    return Err(SoapError::NotSoap(format!(
                        "<{name}> is not in the XFCC namespace {XFCC_NS}"
                    )));
                }
                self.operation = Some(name.clone());
            }
            (3, Some((Ns::Xfcc, _))) if self.in_body() && matches!(ns, Ns::Xfcc | Ns::None) => {
                if self.fields.len() >= MAX_FIELDS {
                    return Err(SoapError::TooManyFields);
                }
                self.field = Some((name.clone(), String::new()));
            }
            _ => {}
        }
        self.stack.push((ns, name));
        Ok(())
    }

    fn in_body(&self) -> bool {
        matches!(self.stack.get(1), Some((Ns::Soap, n)) if n == "Body")
    }

    fn close(&mut self) {
        if self.stack.len() == 4
            && let Some(field) = self.field.take()
        {
            self.fields.push(field);
        }
        self.stack.pop();
    }

    fn text(&mut self, text: &str) -> Result<(), SoapError> {
        match &mut self.field {
            Some((_, value)) if self.stack.len() == 4 => {
                value.push_str(text);
                Ok(())
            }
            _ if text.trim().is_empty() => Ok(()),
            // Text beside elements at any other level (inside a header's own elements, say)
            // is the client's business, except around the envelope itself.
            _ if self.stack.is_empty() => {
                Err(SoapError::Malformed("text outside the envelope".to_owned()))
            }
            _ => Ok(()),
        }
    }
}

/// Whether a tag's local name could be an XML name. The XML reader is lenient and takes
/// `<S</>` as an element named `S<`; such a field would be written back as something else.
fn is_element_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| !c.is_whitespace() && !c.is_control() && !"<>/&\"'=!?;".contains(c))
}

fn predefined(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "apos" => Some('\''),
        "quot" => Some('"'),
        _ => None,
    }
}

/// What an XML walk tells its reader, event by event ([`walk`]).
pub trait Sink {
    /// An element opens: its namespace resolved and its local name.
    fn open(&mut self, ns: Ns, name: String) -> Result<(), SoapError>;
    /// The innermost open element closes.
    fn close(&mut self);
    /// Text inside the innermost open element, references resolved.
    fn text(&mut self, text: &str) -> Result<(), SoapError>;
}

impl Sink for Reading {
    fn open(&mut self, ns: Ns, name: String) -> Result<(), SoapError> {
        Reading::open(self, ns, name)
    }
    fn close(&mut self) {
        Reading::close(self);
    }
    fn text(&mut self, text: &str) -> Result<(), SoapError> {
        Reading::text(self, text)
    }
}

/// Walks the XML document `bytes`, telling `sink` each element and text: the one reader of
/// XFCC's XML, for the server's requests and the bridge's responses alike. A document type
/// declaration, an entity other than XML's five and character references, text that is not
/// UTF-8 or a document left open are refused; element names must be names.
pub fn walk(bytes: &[u8], sink: &mut impl Sink) -> Result<(), SoapError> {
    let text = std::str::from_utf8(bytes).map_err(|_| SoapError::NotUtf8)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = NsReader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut depth = 0usize;
    loop {
        let (ns, event) = reader
            .read_resolved_event()
            .map_err(|e| SoapError::Malformed(e.to_string()))?;
        let ns = Ns::of(&ns);
        match event {
            Event::DocType(_) => return Err(SoapError::Doctype),
            Event::Decl(decl) => {
                if let Some(Ok(encoding)) = decl.encoding()
                    && !encoding.eq_ignore_ascii_case("utf-8")
                {
                    return Err(SoapError::NotUtf8);
                }
            }
            Event::Start(e) => {
                open_checked(sink, ns, e.local_name().as_ref())?;
                depth += 1;
            }
            Event::Empty(e) => {
                open_checked(sink, ns, e.local_name().as_ref())?;
                sink.close();
            }
            Event::End(_) => {
                depth = depth.saturating_sub(1);
                sink.close();
            }
            Event::Text(t) => sink.text(&t.xml10_content())?,
            Event::CData(t) => sink.text(&t.xml10_content())?,
            Event::GeneralRef(reference) => {
                let c = match reference.resolve_char_ref() {
                    Ok(Some(c)) => c,
                    Ok(None) => {
                        let name = reference.xml10_content().into_owned();
                        predefined(&name).ok_or(SoapError::Entity(name))?
                    }
                    Err(e) => return Err(SoapError::Malformed(e.to_string())),
                };
                sink.text(c.encode_utf8(&mut [0; 4]))?;
            }
            Event::Comment(_) | Event::PI(_) => {}
            Event::Eof => break,
        }
    }
    if depth > 0 {
        return Err(SoapError::Malformed(
            "the document ends inside an element".to_owned(),
        ));
    }
    Ok(())
}

/// An element's name checked as a name, then handed to `sink`.
fn open_checked(sink: &mut impl Sink, ns: Ns, name: &str) -> Result<(), SoapError> {
    if !is_element_name(name) {
        return Err(SoapError::Malformed(format!(
            "{name:?} is not an element name"
        )));
    }
    sink.open(ns, name.to_owned())
}

/// Reads an envelope sent as `bytes`.
pub fn read(bytes: &[u8]) -> Result<Call, SoapError> {
    let mut r = Reading::default();
    walk(bytes, &mut r)?;
    match r.operation {
        Some(operation) => Ok(Call {
            operation,
            fields: r.fields,
        }),
        None if r.seen_body => Err(SoapError::NotSoap("the body holds no operation".to_owned())),
        None => Err(SoapError::NotSoap("no soap:Body".to_owned())),
    }
}

/// The envelope's opening, as .NET writes it.
const ENVELOPE_OPEN: &str = concat!(
    r#"<?xml version="1.0" encoding="utf-8"?>"#,
    r#"<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" "#,
    r#"xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" "#,
    r#"xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>"#
);
const ENVELOPE_CLOSE: &str = "</soap:Body></soap:Envelope>";

/// Text for an XML element: `<`, `>` and `&` escaped, and characters XML 1.0 cannot carry
/// (most control characters) left out.
pub fn escape(text: &str) -> String {
    let allowed: String = text
        .chars()
        .filter(|&c| {
            matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
        })
        .collect();
    partial_escape(allowed.as_str()).into_owned()
}

/// A response envelope: `<{operation}Response xmlns="XFCC"><{operation}Result>{result}…`;
/// `result` is already XML.
pub fn response(operation: &str, result: &str) -> String {
    format!(
        "{ENVELOPE_OPEN}<{operation}Response xmlns=\"{XFCC_NS}\"><{operation}Result>{result}</{operation}Result></{operation}Response>{ENVELOPE_CLOSE}"
    )
}

/// A request envelope calling `operation` with `fields` (text, escaped here), as Scid writes
/// one: the operation in XFCC's default namespace, its fields unqualified inside it.
pub fn request(operation: &str, fields: &[(&str, &str)]) -> String {
    let mut body = format!("<{operation} xmlns=\"{XFCC_NS}\">");
    for (name, value) in fields {
        body.push_str(&format!("<{name}>{}</{name}>", escape(value)));
    }
    body.push_str(&format!("</{operation}>"));
    format!("{ENVELOPE_OPEN}{body}{ENVELOPE_CLOSE}")
}

/// A SOAP Fault: `soap:Client` for a request the client got wrong, `soap:Server` otherwise.
pub fn fault(client: bool, text: &str) -> String {
    let code = if client { "soap:Client" } else { "soap:Server" };
    format!(
        "{ENVELOPE_OPEN}<soap:Fault><faultcode>{code}</faultcode><faultstring>{}</faultstring><detail /></soap:Fault>{ENVELOPE_CLOSE}",
        escape(text)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn envelope(body: &str) -> String {
        format!(
            r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{SOAP_NS}"><soap:Body>{body}</soap:Body></soap:Envelope>"#
        )
    }

    #[test]
    fn the_operation_is_found_by_namespace_whatever_the_prefix() {
        let scid = envelope(&format!(
            r#"<GetMyGames xmlns="{XFCC_NS}"><username>alice</username><password>a&amp;b&#x416;&#1078;</password></GetMyGames>"#
        ));
        let community = format!(
            r#"<SOAP-ENV:Envelope xmlns:SOAP-ENV="{SOAP_NS}" xmlns:ns="{XFCC_NS}"><SOAP-ENV:Header/><SOAP-ENV:Body><ns:GetMyGames><ns:username>alice</ns:username><ns:password>a&amp;bЖж</ns:password></ns:GetMyGames></SOAP-ENV:Body></SOAP-ENV:Envelope>"#
        );
        for text in [scid, community] {
            let call = read(text.as_bytes()).unwrap();
            assert_eq!(call.operation, "GetMyGames");
            assert_eq!(call.field("username"), Some("alice"));
            assert_eq!(call.field("password"), Some("a&bЖж"));
        }
    }

    #[test]
    fn cdata_and_empty_fields_and_unqualified_fields_are_read() {
        let text = envelope(&format!(
            r#"<m:MakeAMove xmlns:m="{XFCC_NS}"><username>a</username><myMessage><![CDATA[<hi> & bye]]></myMessage><offerDraw/></m:MakeAMove>"#
        ));
        let call = read(text.as_bytes()).unwrap();
        assert_eq!(call.field("myMessage"), Some("<hi> & bye"));
        assert_eq!(call.field("offerDraw"), Some(""));
        assert_eq!(call.field("resign"), None);
    }

    #[test]
    fn every_bad_envelope_is_refused_with_its_reason() {
        let op = format!(r#"<GetMyGames xmlns="{XFCC_NS}"><username>a</username></GetMyGames>"#);
        let doctype = format!(
            r#"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaa">]>{}"#,
            envelope(&op)
        );
        assert_eq!(read(doctype.as_bytes()), Err(SoapError::Doctype));
        let entity = envelope(&format!(
            r#"<GetMyGames xmlns="{XFCC_NS}"><username>&a;</username></GetMyGames>"#
        ));
        assert_eq!(read(entity.as_bytes()), Err(SoapError::Entity("a".into())));
        let deep = envelope(&format!(
            r#"<GetMyGames xmlns="{XFCC_NS}">{}{}</GetMyGames>"#,
            "<x>".repeat(40),
            "</x>".repeat(40)
        ));
        assert_eq!(read(deep.as_bytes()), Err(SoapError::TooDeep));
        assert_eq!(read(b"\xff\xfe<a/>"), Err(SoapError::NotUtf8));
        let latin1 = format!(
            r#"<?xml version="1.0" encoding="ISO-8859-1"?>{}"#,
            envelope(&op).trim_start_matches(r#"<?xml version="1.0" encoding="utf-8"?>"#)
        );
        assert_eq!(read(latin1.as_bytes()), Err(SoapError::NotUtf8));
        let wrong_ns = envelope(r#"<GetMyGames xmlns="urn:other"/>"#);
        assert!(matches!(
            read(wrong_ns.as_bytes()),
            Err(SoapError::NotSoap(_))
        ));
        // An operation without an envelope; a SOAP 1.2 envelope.
        assert!(matches!(read(op.as_bytes()), Err(SoapError::NotSoap(_))));
        let soap12 = envelope(&op).replace(SOAP_NS, "http://www.w3.org/2003/05/soap-envelope");
        assert!(matches!(
            read(soap12.as_bytes()),
            Err(SoapError::NotSoap(_))
        ));
        assert!(matches!(
            read(envelope("").as_bytes()),
            Err(SoapError::NotSoap(_))
        ));
        let unclosed = envelope(&op).replace("</soap:Envelope>", "");
        assert!(matches!(
            read(unclosed.as_bytes()),
            Err(SoapError::Malformed(_))
        ));
        let mismatched = envelope(&op).replace("</username>", "</password>");
        assert!(matches!(
            read(mismatched.as_bytes()),
            Err(SoapError::Malformed(_))
        ));
        let two = envelope(&format!("{op}{op}"));
        assert!(matches!(read(two.as_bytes()), Err(SoapError::NotSoap(_))));
        let many = envelope(&format!(
            r#"<GetMyGames xmlns="{XFCC_NS}">{}</GetMyGames>"#,
            "<f>1</f>".repeat(MAX_FIELDS + 1)
        ));
        assert_eq!(read(many.as_bytes()), Err(SoapError::TooManyFields));
    }

    /// The XML reader took `<S</>` as an element named `S<`, so a field came out named in a
    /// way no writer writes back (found by the xfcc fuzzing target).
    #[test]
    fn regression_a_tag_with_a_bracket_in_its_name_was_read_as_a_field() {
        let op = r#"<GetMyGames xmlns="http://www.bennedik.com/webservices/XfccBasic"><S</><username>a</username></GetMyGames>"#;
        assert!(matches!(
            read(envelope(op).as_bytes()),
            Err(SoapError::Malformed(_))
        ));
        for name in ["S<", "a/b", "x=y", "", "a b"] {
            assert!(!is_element_name(name), "{name:?}");
        }
        for name in ["username", "gameId", "soap:Body", "ns-1.x_y"] {
            assert!(is_element_name(name), "{name:?}");
        }
    }

    #[test]
    fn responses_have_the_dotnet_shape_and_escape_text() {
        let r = response("MakeAMove", "Success");
        assert!(r.starts_with(r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/""#));
        assert!(r.contains(r#"<soap:Body><MakeAMoveResponse xmlns="http://www.bennedik.com/webservices/XfccBasic"><MakeAMoveResult>Success</MakeAMoveResult></MakeAMoveResponse></soap:Body></soap:Envelope>"#));
        assert_eq!(escape("a<b & c>d \u{1}Ж"), "a&lt;b &amp; c&gt;d Ж");
        let f = fault(true, "bad <x>");
        assert!(f.contains(
            "<faultcode>soap:Client</faultcode><faultstring>bad &lt;x&gt;</faultstring>"
        ));
        // What is written reads back.
        let call = read(
            envelope(&format!(
                r#"<GetMyGames xmlns="{XFCC_NS}"><username>{}</username></GetMyGames>"#,
                escape("<&>\"'")
            ))
            .as_bytes(),
        )
        .unwrap();
        assert_eq!(call.field("username"), Some("<&>\"'"));
    }
}
