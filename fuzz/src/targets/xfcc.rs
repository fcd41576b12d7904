//! The XFCC SOAP envelope reader, and the message a `MakeAMove` would hand on.

use ccrelay::command::text::{self, TextKind};
use ccrelay::transport::http::xfcc::soap::{self, Call, SOAP_NS, XFCC_NS};
use ccrelay::transport::http::xfcc::written_message;

/// No panic; an envelope read is written again (operation and fields, the values escaped as
/// the server escapes its answers) and reads back to the same call; the `myMessage` a
/// `MakeAMove` hands on, mended, passes the one text check (or nothing readable is left), and
/// one that passes is handed on as written.
pub fn envelope(data: &[u8]) {
    let Ok(call) = soap::read(data) else {
        return;
    };
    match written_message(&call) {
        Some(said) => {
            let mended = text::mend(said, TextKind::Message);
            assert!(
                mended.text.is_empty() || text::check(&mended.text, TextKind::Message).is_ok(),
                "{said:?} -> {:?}",
                mended.text
            );
            if text::check(said, TextKind::Message).is_ok() {
                assert_eq!((mended.text.as_str(), mended.changed), (said, false));
            }
        }
        None => assert!(call.field("myMessage").is_none_or(|m| m.trim().is_empty())),
    }
    let mut xml = format!(
        r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="{SOAP_NS}"><soap:Body><{op} xmlns="{XFCC_NS}">"#,
        op = call.operation
    );
    for (name, value) in &call.fields {
        xml.push_str(&format!("<{name}>{}</{name}>", soap::escape(value)));
    }
    xml.push_str(&format!(
        "</{op}></soap:Body></soap:Envelope>",
        op = call.operation
    ));
    let again = soap::read(xml.as_bytes());
    let expected = Call {
        operation: call.operation.clone(),
        fields: call
            .fields
            .iter()
            .map(|(n, v)| (n.clone(), as_escaped(v)))
            .collect(),
    };
    assert_eq!(again, Ok(expected), "{xml}");
}

/// What a value becomes once escaped and read again: the characters XML 1.0 cannot carry left
/// out, and line ends normalised as every XML reader does (CR LF and CR to LF).
fn as_escaped(value: &str) -> String {
    let kept: String = value
        .chars()
        .filter(|&c| {
            matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
        })
        .collect();
    kept.replace("\r\n", "\n").replace('\r', "\n")
}
