//! The line under a link: opening it (a serial port, a TCP connection made or accepted) with
//! backoff, and writing frames to it within a deadline.

use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};

use super::{LinkError, LinkTask, WRITE_TIMEOUT};
use crate::backoff::{self, Backoff};
use crate::config::LinkTransport;
use crate::transport::{radio, serial_port};

/// A byte stream to the peer.
pub(super) trait Line: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Line for T {}

impl LinkTask {
    /// Opens the line: connects, accepts, or opens the serial port, retrying with backoff.
    /// `None` at shutdown.
    pub(super) async fn open_line(
        &self,
        listener: Option<&tokio::net::TcpListener>,
        backoff: &mut Backoff,
    ) -> Option<Box<dyn Line>> {
        let id = &self.config.id;
        loop {
            let attempt: Result<Box<dyn Line>, String> = match &self.config.transport {
                LinkTransport::Serial(serial) => {
                    return serial_port::open_with_backoff(serial, backoff, &self.shutdown)
                        .await
                        .map(|port| Box::new(port) as Box<dyn Line>);
                }
                LinkTransport::Radio { port, peer } => self.radio_line(port, peer),
                LinkTransport::TcpConnect(addr) => tokio::select! {
                    r = tokio::time::timeout(Duration::from_secs(10), tokio::net::TcpStream::connect(addr.as_str())) => match r {
                        Ok(Ok(s)) => {
                            let _ = s.set_nodelay(true);
                            Ok(Box::new(s) as Box<dyn Line>)
                        }
                        Ok(Err(e)) => Err(e.to_string()),
                        Err(_) => Err("connect timed out".to_owned()),
                    },
                    () = self.shutdown.cancelled() => return None,
                },
                LinkTransport::TcpListen(_) => {
                    let listener = listener?;
                    tokio::select! {
                        r = listener.accept() => match r {
                            Ok((s, peer)) => {
                                tracing::info!(link = %id, %peer, "peer connected");
                                let _ = s.set_nodelay(true);
                                Ok(Box::new(s) as Box<dyn Line>)
                            }
                            Err(e) => Err(e.to_string()),
                        },
                        () = self.shutdown.cancelled() => return None,
                    }
                }
            };
            match attempt {
                Ok(line) => return Some(line),
                Err(e) => {
                    let wait = backoff.next_delay();
                    tracing::debug!(link = %id, error = %e, retry_in = ?wait, "link not connected");
                    backoff::sleep(wait, &self.shutdown).await.ok()?;
                }
            }
        }
    }
}

impl LinkTask {
    /// The line through radio port `port` to the station `peer`.
    fn radio_line(&self, port: &str, peer: &str) -> Result<Box<dyn Line>, String> {
        let handle = self
            .radios
            .get(port)
            .ok_or_else(|| format!("no radio port {port:?}"))?;
        let peer = peer.parse().map_err(|e| format!("{e}"))?;
        Ok(Box::new(radio::link::open(handle, peer)))
    }
}

pub(super) async fn write_all<W: AsyncWrite + Unpin>(
    wr: &mut W,
    frames: Vec<Vec<u8>>,
) -> Result<(), LinkError> {
    if frames.is_empty() {
        return Ok(());
    }
    let bytes = frames.concat();
    tokio::time::timeout(WRITE_TIMEOUT, async {
        wr.write_all(&bytes).await?;
        wr.flush().await
    })
    .await
    .map_err(|_| LinkError::WriteTimeout)??;
    Ok(())
}
