//! A radio port: one task owns the KISS connection to the TNC, sends the frames its users
//! queue (paced by the transmit budget, each with the station's callsign as its source) and
//! hands every UI frame it hears to whoever listens.
//!
//! The TNC may go away (Direwolf restarted, a serial adapter pulled): the task opens it again
//! with the one backoff, and the frames queued meanwhile wait in the bounded queue, the one
//! taken but not yet written included. A sender that finds the queue full is told so and keeps
//! its frame (the node link and the outboxes send again anyway).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{broadcast, mpsc};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::ax25::{Callsign, Hop, PID_NO_L3, UiFrame};
use super::kiss::{self, Command};
use super::pace::{self, Bucket};
use crate::backoff::{self, Backoff};
use crate::config::{RadioConfig, Tnc};
use crate::transport::serial_port;

/// Frames heard that a slow listener may fall behind by before it misses some.
const HEARD: usize = 256;
/// A frame not written to the TNC in this long: the connection is stuck.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// Direwolf's TXDELAY when the operator sets none: what the budget counts a frame's preamble.
const TXDELAY_ASSUMED: Duration = Duration::from_millis(300);

/// A frame to send: to whom, and its information field.
#[derive(Debug)]
pub struct Outgoing {
    pub to: Callsign,
    pub info: Vec<u8>,
}

/// What a port has done, for `/metrics` and the figures in docs/radio.md.
#[derive(Debug, Default)]
pub struct PortStats {
    pub frames_out: AtomicU64,
    /// Bytes on air sent: frames, their CRC and flags, and the preamble.
    pub air_bytes_out: AtomicU64,
    pub frames_in: AtomicU64,
}

/// The port's users' side: queue frames, listen to what is heard.
#[derive(Clone, Debug)]
pub struct PortHandle {
    pub callsign: Callsign,
    queue: mpsc::Sender<Outgoing>,
    heard: broadcast::Sender<Arc<UiFrame>>,
    pub stats: Arc<PortStats>,
}

/// The queue was full: try again later.
#[derive(Debug, PartialEq, Eq)]
pub struct QueueFull;

impl PortHandle {
    /// Queues a frame to `to`; never waits.
    pub fn send(&self, to: Callsign, info: Vec<u8>) -> Result<(), QueueFull> {
        self.queue
            .try_send(Outgoing { to, info })
            .map_err(|_| QueueFull)
    }

    /// Every UI frame heard from now on, but our own.
    pub fn heard(&self) -> broadcast::Receiver<Arc<UiFrame>> {
        self.heard.subscribe()
    }
}

/// The ports by id.
pub type Ports = HashMap<String, PortHandle>;

/// Starts one task per `[[radio]]` port. A port whose callsign or path does not read (the
/// configuration's check refuses them first) is left out, logged.
pub fn spawn_all(
    configs: &[RadioConfig],
    shutdown: &CancellationToken,
    tracker: &TaskTracker,
) -> Ports {
    let mut ports = Ports::new();
    for config in configs {
        match Port::new(config.clone(), shutdown.clone()) {
            Ok((port, handle)) => {
                tracker.spawn(port.run());
                ports.insert(config.id.clone(), handle);
            }
            Err(e) => tracing::error!(radio = %config.id, error = %e, "radio port disabled"),
        }
    }
    ports
}

/// A byte stream to the TNC.
trait Line: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Line for T {}

/// The task's side.
pub struct Port {
    config: RadioConfig,
    me: Callsign,
    path: Vec<Hop>,
    queue: mpsc::Receiver<Outgoing>,
    heard: broadcast::Sender<Arc<UiFrame>>,
    stats: Arc<PortStats>,
    bucket: Bucket,
    /// A frame taken from the queue and not yet written: kept across a reconnection.
    next: Option<Vec<u8>>,
    shutdown: CancellationToken,
}

impl Port {
    pub fn new(
        config: RadioConfig,
        shutdown: CancellationToken,
    ) -> Result<(Port, PortHandle), super::ax25::Ax25Error> {
        let me: Callsign = config.callsign.parse()?;
        let path = config
            .path
            .iter()
            .map(|hop| {
                hop.parse().map(|station| Hop {
                    station,
                    repeated: false,
                })
            })
            .collect::<Result<_, _>>()?;
        let (tx, rx) = mpsc::channel(config.queue_frames.max(1));
        let (heard, _) = broadcast::channel(HEARD);
        let stats = Arc::new(PortStats::default());
        let bucket = Bucket::new(config.budget_bytes_per_minute, 400, Instant::now());
        let handle = PortHandle {
            callsign: me.clone(),
            queue: tx,
            heard: heard.clone(),
            stats: stats.clone(),
        };
        let port = Port {
            config,
            me,
            path,
            queue: rx,
            heard,
            stats,
            bucket,
            next: None,
            shutdown,
        };
        Ok((port, handle))
    }

    pub async fn run(mut self) {
        let mut backoff = Backoff::new(Duration::from_millis(200), Duration::from_secs(30));
        while let Some(line) = self.open(&mut backoff).await {
            let started = Instant::now();
            tracing::info!(radio = %self.config.id, "TNC connected");
            match self.serve(line).await {
                Ok(()) => break,
                Err(e) => tracing::warn!(radio = %self.config.id, error = %e, "TNC lost"),
            }
            if started.elapsed() > Duration::from_secs(10) {
                backoff.reset();
            }
            if backoff.wait(&self.shutdown).await.is_err() {
                break;
            }
        }
    }

    /// Opens the TNC with backoff; `None` at shutdown.
    async fn open(&self, backoff: &mut Backoff) -> Option<Box<dyn Line>> {
        loop {
            let attempt = match &self.config.tnc {
                Tnc::Serial(serial) => {
                    return serial_port::open_with_backoff(serial, backoff, &self.shutdown)
                        .await
                        .map(|port| Box::new(port) as Box<dyn Line>);
                }
                Tnc::Tcp(addr) => tokio::select! {
                    r = tokio::time::timeout(Duration::from_secs(10), tokio::net::TcpStream::connect(addr.as_str())) => r,
                    () = self.shutdown.cancelled() => return None,
                },
            };
            match attempt {
                Ok(Ok(stream)) => {
                    let _ = stream.set_nodelay(true);
                    return Some(Box::new(stream));
                }
                Ok(Err(e)) => {
                    tracing::debug!(radio = %self.config.id, error = %e, "TNC not reached")
                }
                Err(_) => tracing::debug!(radio = %self.config.id, "TNC connect timed out"),
            }
            backoff::sleep(backoff.next_delay(), &self.shutdown)
                .await
                .ok()?;
        }
    }

    /// The TNC's timing as the operator set it, in KISS commands.
    fn settings(&self) -> Vec<u8> {
        let tens = |d: Duration| u8::try_from(d.as_millis() / 10).unwrap_or(u8::MAX);
        let mut out = Vec::new();
        if let Some(d) = self.config.txdelay {
            out.extend(kiss::encode(0, Command::TxDelay, &[tens(d)]));
        }
        if let Some(p) = self.config.persistence {
            out.extend(kiss::encode(0, Command::Persistence, &[p]));
        }
        if let Some(d) = self.config.slot {
            out.extend(kiss::encode(0, Command::SlotTime, &[tens(d)]));
        }
        out
    }

    /// Serves one connection until it fails (`Err`) or shutdown (`Ok`).
    async fn serve(&mut self, line: Box<dyn Line>) -> std::io::Result<()> {
        let (mut rd, mut wr) = tokio::io::split(line);
        write_within(&mut wr, &self.settings()).await?;
        let mut reader = kiss::Reader::default();
        let mut buf = [0u8; 1024];
        loop {
            let ready_in = match &self.next {
                Some(frame) => self.bucket.wait(self.cost(frame.len()), Instant::now()),
                None => Duration::MAX,
            };
            tokio::select! {
                n = rd.read(&mut buf) => match n? {
                    0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                    n => {
                        reader.push(&buf[..n]);
                        self.hear(&mut reader);
                    }
                },
                out = self.queue.recv(), if self.next.is_none() => match out {
                    Some(out) => self.next = self.frame(out),
                    None => return Ok(()),
                },
                () = tokio::time::sleep(ready_in), if self.next.is_some() => {
                    if let Some(frame) = self.next.take() {
                        self.transmit(&mut wr, frame).await?;
                    }
                }
                () = self.shutdown.cancelled() => return Ok(()),
            }
        }
    }

    fn cost(&self, ax25_len: usize) -> usize {
        pace::on_air(ax25_len, self.config.txdelay.unwrap_or(TXDELAY_ASSUMED))
    }

    /// A UI frame from this station to `out.to`, encoded; `None` (logged) if it cannot be.
    fn frame(&self, out: Outgoing) -> Option<Vec<u8>> {
        let frame = UiFrame {
            destination: out.to,
            source: self.me.clone(),
            path: self.path.clone(),
            pid: PID_NO_L3,
            info: out.info,
        };
        frame
            .encode()
            .inspect_err(|e| tracing::warn!(radio = %self.config.id, error = %e, "frame not sent"))
            .ok()
    }

    async fn transmit<W: AsyncWrite + Unpin>(
        &mut self,
        wr: &mut W,
        frame: Vec<u8>,
    ) -> std::io::Result<()> {
        let bytes = kiss::encode(0, Command::Data, &frame);
        if let Err(e) = write_within(wr, &bytes).await {
            // Kept for the next connection.
            self.next = Some(frame);
            return Err(e);
        }
        let cost = self.cost(frame.len());
        self.bucket.take(cost, Instant::now());
        self.stats.frames_out.fetch_add(1, Ordering::Relaxed);
        let air = (frame.len() + pace::FRAMING_BYTES) as u64;
        self.stats.air_bytes_out.fetch_add(air, Ordering::Relaxed);
        metrics::counter!("ccrelay_radio_bytes_out_total", "radio" => self.config.id.clone())
            .increment(air);
        Ok(())
    }

    /// Hands every whole UI frame read to the listeners (but our own, which a TNC may echo).
    fn hear(&self, reader: &mut kiss::Reader) {
        while let Some(step) = reader.next_frame() {
            let frame = match step {
                Ok(f) if f.command == Command::Data as u8 => f,
                Ok(_) => continue,
                Err(e) => {
                    tracing::debug!(radio = %self.config.id, error = %e, "KISS bytes skipped");
                    continue;
                }
            };
            match UiFrame::decode(&frame.data) {
                Ok(ui) if ui.source != self.me => {
                    self.stats.frames_in.fetch_add(1, Ordering::Relaxed);
                    let _ = self.heard.send(Arc::new(ui));
                }
                Ok(_) => {}
                Err(e) => tracing::trace!(radio = %self.config.id, error = %e, "frame ignored"),
            }
        }
    }
}

async fn write_within<W: AsyncWrite + Unpin>(wr: &mut W, bytes: &[u8]) -> std::io::Result<()> {
    if bytes.is_empty() {
        return Ok(());
    }
    tokio::time::timeout(WRITE_TIMEOUT, async {
        wr.write_all(bytes).await?;
        wr.flush().await
    })
    .await
    .map_err(|_| std::io::Error::from(std::io::ErrorKind::TimedOut))?
}

#[cfg(test)]
mod tests;
