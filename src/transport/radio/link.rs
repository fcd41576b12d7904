//! The node link's line over a radio port: the link's frames (COBS, each ending in a zero
//! byte: docs/link.md) carried in AX.25 UI frames between the two stations' callsigns.
//!
//! The link sees a byte stream, as on a serial line or TCP: what it writes is cut at its frames'
//! ends and sent, the frames written together in one UI frame (one transmission: its preamble
//! and header paid once), and the information of every UI frame the peer addresses to this
//! station is handed back as bytes. Nothing here acknowledges or resends: the link's own ARQ,
//! tags and parity do, as on any line; a frame lost to noise, a full queue or a TNC away is
//! made good by it.

use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio::sync::broadcast::error::RecvError;

use super::ax25::{Callsign, MAX_INFO, PID_NO_L3};
use super::port::PortHandle;

/// The link's buffer each way: a window of frames many times over.
const BUFFER: usize = 4096;

/// Opens the line to `peer` through `port`: the link's end of a stream whose other end a task
/// pumps to and from the radio until the link drops its end.
pub fn open(port: &PortHandle, peer: Callsign) -> DuplexStream {
    let (link_end, pump_end) = tokio::io::duplex(BUFFER);
    tokio::spawn(pump(port.clone(), peer, pump_end));
    link_end
}

async fn pump(port: PortHandle, peer: Callsign, stream: DuplexStream) {
    let (mut rd, mut wr) = tokio::io::split(stream);
    let mut heard = port.heard();
    let mut pending: Vec<u8> = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        tokio::select! {
            n = rd.read(&mut buf) => match n {
                Ok(0) | Err(_) => return,
                Ok(n) => {
                    pending.extend_from_slice(&buf[..n]);
                    for info in packed(&mut pending) {
                        if port.send(peer.clone(), info).is_err() {
                            tracing::debug!(%peer, "radio queue full: the link will send again");
                        }
                    }
                }
            },
            frame = heard.recv() => match frame {
                Ok(frame) if frame.source == peer && frame.destination == port.callsign && frame.pid == PID_NO_L3 => {
                    if wr.write_all(&frame.info).await.is_err() {
                        return;
                    }
                }
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            },
        }
    }
}

/// Takes the whole link frames at the front of `pending` (each ending in a zero byte) and
/// packs them, in order, into information fields of at most [`MAX_INFO`] bytes; a part of a
/// frame stays for the next read. A single frame longer than a field (the link never writes
/// one) is cut, and its receiver drops the pieces as damage.
fn packed(pending: &mut Vec<u8>) -> Vec<Vec<u8>> {
    let Some(last_end) = pending.iter().rposition(|&b| b == 0) else {
        return Vec::new();
    };
    let whole: Vec<u8> = pending.drain(..=last_end).collect();
    let mut infos: Vec<Vec<u8>> = Vec::new();
    for frame in whole.split_inclusive(|&b| b == 0) {
        for piece in frame.chunks(MAX_INFO) {
            match infos.last_mut() {
                Some(info) if info.len() + piece.len() <= MAX_INFO => info.extend_from_slice(piece),
                _ => infos.push(piece.to_vec()),
            }
        }
    }
    infos
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_frames_are_packed_and_a_part_waits() {
        let mut pending = vec![1, 2, 0, 3, 0, 4, 5];
        assert_eq!(packed(&mut pending), vec![vec![1, 2, 0, 3, 0]]);
        assert_eq!(pending, vec![4, 5]);
        pending.push(0);
        assert_eq!(packed(&mut pending), vec![vec![4, 5, 0]]);
        assert!(pending.is_empty());
    }

    #[test]
    fn fields_hold_at_most_a_ui_frames_information() {
        let frame = |n: usize| {
            let mut f = vec![7u8; n];
            f.push(0);
            f
        };
        let mut pending = [frame(99), frame(99), frame(99)].concat();
        let infos = packed(&mut pending);
        assert_eq!(
            infos.iter().map(Vec::len).collect::<Vec<_>>(),
            vec![200, 100]
        );
    }
}
