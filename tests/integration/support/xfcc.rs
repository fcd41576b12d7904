//! XFCC's wire as a client writes it: a SOAP 1.1 envelope for an operation, POSTed to the
//! service.

use std::net::SocketAddr;

use super::http::{Response, raw};

/// The XFCC service's XML namespace.
pub const XFCC_NS: &str = "http://www.bennedik.com/webservices/XfccBasic";

/// POSTs `body` as XML to `path` on a new connection; `Connection: close`.
pub fn post(addr: SocketAddr, path: &str, body: &[u8]) -> Response {
    let mut request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    raw(addr, &request)
}

/// `text` escaped for XML.
fn esc(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A SOAP 1.1 envelope calling `operation` with `fields` (name, text), each escaped.
pub fn envelope(operation: &str, fields: &[(&str, &str)]) -> String {
    let fields: String = fields
        .iter()
        .map(|(n, v)| format!("<{n}>{}</{n}>", esc(v)))
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><{operation} xmlns="{XFCC_NS}">{fields}</{operation}></soap:Body></soap:Envelope>"#
    )
}
