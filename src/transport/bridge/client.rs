//! One SOAP call to a remote XFCC server over HTTP/1.1: a connection of its own (a poll every
//! few minutes needs no pool), TLS with the system's roots and an optional CA file (plain HTTP
//! only for a URL that says `http://`), every step under one deadline, and the answer cut off
//! past a size limit. A server's SOAP Fault comes with status 500 (SOAP 1.1's rule): its body
//! is handed on for the answer's reader; any other status that is not 200 is an error.

use std::path::Path;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::Uri;
use hyper::client::conn::http1;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

use crate::transport::tls_client::tls_connector;

/// The largest answer read, in bytes (a `GetMyGames` of 500 long games is about 1 MB).
pub const MAX_ANSWER: usize = 4 << 20;

/// Why a call got no answer to read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    #[error("the server's URL {0:?} is not an http:// or https:// URL with a host")]
    Url(String),
    #[error("cannot connect to {0}")]
    Connect(String),
    #[error("TLS: {0}")]
    Tls(String),
    #[error("HTTP: {0}")]
    Http(String),
    #[error("the server answered HTTP {0}")]
    Status(u16),
    #[error("the answer is larger than {MAX_ANSWER} bytes")]
    TooLarge,
    #[error("no answer within {0:?}")]
    Timeout(Duration),
}

/// Where the server is, read from its URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    pub tls: bool,
    pub host: String,
    pub port: u16,
    /// The path and query asked for (`/xfccbasic.asmx`).
    pub path: String,
}

impl Endpoint {
    /// The endpoint a URL names: `https://` or `http://` (the configuration says whether plain
    /// HTTP is allowed).
    pub fn from_url(url: &str) -> Result<Endpoint, CallError> {
        let bad = || CallError::Url(url.chars().take(200).collect());
        let uri: Uri = url.parse().map_err(|_| bad())?;
        let tls = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            _ => return Err(bad()),
        };
        let host = uri.host().filter(|h| !h.is_empty()).ok_or_else(bad)?;
        let host = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        Ok(Endpoint {
            tls,
            port: uri.port_u16().unwrap_or(if tls { 443 } else { 80 }),
            host,
            path: uri
                .path_and_query()
                .map_or_else(|| "/".to_owned(), |p| p.as_str().to_owned()),
        })
    }

    /// The `Host` header's value.
    fn authority(&self) -> String {
        let default = if self.tls { 443 } else { 80 };
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        if self.port == default {
            host
        } else {
            format!("{host}:{}", self.port)
        }
    }
}

/// Posts `envelope` to `endpoint` as the SOAP 1.1 call `operation`, and reads the answer;
/// everything within `deadline`.
pub async fn call(
    endpoint: &Endpoint,
    ca_file: Option<&Path>,
    operation: &str,
    envelope: String,
    deadline: Duration,
) -> Result<Vec<u8>, CallError> {
    match tokio::time::timeout(deadline, exchange(endpoint, ca_file, operation, envelope)).await {
        Ok(answer) => answer,
        Err(_) => Err(CallError::Timeout(deadline)),
    }
}

async fn exchange(
    endpoint: &Endpoint,
    ca_file: Option<&Path>,
    operation: &str,
    envelope: String,
) -> Result<Vec<u8>, CallError> {
    let tcp = TcpStream::connect((endpoint.host.as_str(), endpoint.port))
        .await
        .map_err(|e| CallError::Connect(format!("{}: {e}", endpoint.authority())))?;
    if !endpoint.tls {
        return post(tcp, endpoint, operation, envelope).await;
    }
    let connector = tls_connector(ca_file).map_err(CallError::Tls)?;
    let name = rustls::pki_types::ServerName::try_from(endpoint.host.clone())
        .map_err(|e| CallError::Tls(e.to_string()))?;
    let tls = connector
        .connect(name, tcp)
        .await
        .map_err(|e| CallError::Tls(e.to_string()))?;
    post(tls, endpoint, operation, envelope).await
}

async fn post(
    stream: impl AsyncRead + AsyncWrite + Send + Unpin + 'static,
    endpoint: &Endpoint,
    operation: &str,
    envelope: String,
) -> Result<Vec<u8>, CallError> {
    let http = |e: hyper::Error| CallError::Http(e.to_string());
    let (mut sender, connection) = http1::handshake(TokioIo::new(stream)).await.map_err(http)?;
    let driver = tokio::spawn(connection);
    let request = hyper::Request::post(endpoint.path.as_str())
        .header(hyper::header::HOST, endpoint.authority())
        .header(hyper::header::CONTENT_TYPE, "text/xml; charset=utf-8")
        .header(
            "SOAPAction",
            format!(
                "\"{}/{operation}\"",
                crate::transport::http::xfcc::soap::XFCC_NS
            ),
        )
        .header(hyper::header::CONNECTION, "close")
        .body(Full::new(Bytes::from(envelope)))
        .map_err(|e| CallError::Http(e.to_string()))?;
    let response = sender.send_request(request).await.map_err(http);
    let answer = match response {
        Ok(response) => read(response).await,
        Err(e) => Err(e),
    };
    driver.abort();
    answer
}

async fn read(response: hyper::Response<hyper::body::Incoming>) -> Result<Vec<u8>, CallError> {
    let status = response.status().as_u16();
    if status != 200 && status != 500 {
        return Err(CallError::Status(status));
    }
    let body = Limited::new(response.into_body(), MAX_ANSWER)
        .collect()
        .await
        .map_err(|e| {
            if e.is::<http_body_util::LengthLimitError>() {
                CallError::TooLarge
            } else {
                CallError::Http(e.to_string())
            }
        })?;
    Ok(body.to_bytes().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_are_read_from_urls() {
        let e = Endpoint::from_url("https://www.iccf.com/XfccBasic.asmx").unwrap();
        assert_eq!(
            (e.tls, e.host.as_str(), e.port, e.path.as_str()),
            (true, "www.iccf.com", 443, "/XfccBasic.asmx")
        );
        assert_eq!(e.authority(), "www.iccf.com");
        let e = Endpoint::from_url("http://127.0.0.1:8080/xfccbasic.asmx?x=1").unwrap();
        assert_eq!(
            (e.tls, e.port, e.path.as_str()),
            (false, 8080, "/xfccbasic.asmx?x=1")
        );
        assert_eq!(e.authority(), "127.0.0.1:8080");
        let e = Endpoint::from_url("https://[::1]:8443/").unwrap();
        assert_eq!(
            (e.host.as_str(), e.authority()),
            ("::1", "[::1]:8443".to_owned())
        );
        for bad in [
            "ftp://x/y",
            "xfccbasic.asmx",
            "https://",
            "",
            "https:///path",
        ] {
            assert!(Endpoint::from_url(bad).is_err(), "{bad:?}");
        }
    }
}
