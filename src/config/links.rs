//! `[[links]]`: other ccrelay nodes, reached over TCP or a serial line, with the secret both
//! hold; and the checks that tie links to players and games.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::check::{Checker, Field};
use super::events::GameConfig;
use super::players::{Players, Reach};
use super::secret::LinkSecret;
use super::serial::{self, RawSerial, SerialConfig};

/// A link as the file writes it: its own keys, and a serial line's keys beside them (read
/// only with `transport = "serial"`). Keys neither knows are refused by the serial part.
#[derive(Deserialize)]
pub(super) struct RawLink {
    id: Option<String>,
    transport: Option<Field<LinkKind>>,
    connect: Option<String>,
    listen: Option<String>,
    secret: Option<String>,
    secret_file: Option<PathBuf>,
    window: Option<i64>,
    retransmit_ms: Option<i64>,
    tag_bytes: Option<i64>,
    fec_bytes: Option<i64>,
    radio: Option<String>,
    peer: Option<String>,
    #[serde(flatten)]
    serial: RawSerial,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum LinkKind {
    Tcp,
    Serial,
    Radio,
}

/// A link to another ccrelay node: how to reach it and the secret both hold.
#[derive(Clone, Debug)]
pub struct LinkConfig {
    pub id: String,
    pub transport: LinkTransport,
    pub secret: LinkSecret,
    /// DATA frames in flight before an acknowledgement (1 to 8).
    pub window: usize,
    /// A fixed floor and first value for the retransmission timeout; `None`: from the line
    /// speed and the measured round trip.
    pub retransmit: Option<Duration>,
    /// Bytes of MAC on each frame (4 to 16): the forgery odds per frame are 2^-(8 × this).
    /// The session takes the longer of the two nodes' settings.
    pub tag_bytes: usize,
    /// Reed–Solomon parity bytes on each frame (0, 2, 4 ... 14), repairing up to half as many
    /// damaged bytes where the frame lands. The session takes the larger of the two nodes'.
    pub fec_bytes: usize,
}

#[derive(Clone, Debug)]
pub enum LinkTransport {
    /// Connect to the peer (and reconnect after a drop).
    TcpConnect(String),
    /// Wait for the peer to connect.
    TcpListen(SocketAddr),
    Serial(SerialConfig),
    /// UI frames through a `[[radio]]` port to the peer's callsign (docs/radio.md).
    Radio {
        port: String,
        peer: String,
    },
}

/// A link over a radio port: the port's id (checked with `[[radio]]`) and the peer's callsign.
fn radio_link(
    c: &mut Checker,
    prefix: &str,
    port: Option<String>,
    peer: Option<String>,
) -> Option<LinkTransport> {
    let port = c.required(&format!("{prefix}.radio"), port);
    let peer = c
        .required(&format!("{prefix}.peer"), peer)
        .to_ascii_uppercase();
    if !super::check::valid_callsign(&peer) {
        c.problem(
            format!("{prefix}.peer"),
            format!("{peer:?} is not a callsign"),
        );
    }
    Some(LinkTransport::Radio { port, peer })
}

/// A game's id on a link's wire: the first two bytes of its SHA-256. Both nodes know their
/// games' ids, so two bytes name one without spelling it; `check` refuses two games of one
/// configuration with the same code (with 20 games, one configuration in 350 has to rename
/// one).
pub fn game_code(id: &str) -> u16 {
    let h = Sha256::digest(id.as_bytes());
    u16::from_be_bytes([h[0], h[1]])
}

/// The link's shortest, longest and usual MAC tag, in bytes.
const TAG_MIN: u64 = 4;
const TAG_MAX: u64 = 16;
const TAG_DEFAULT: u64 = 6;
/// Selective repeat over 4-bit sequence numbers: at most 8 frames in flight.
const WINDOW_MAX: u64 = 8;

/// Checks `[[links]]`, that each player across a link names one, and that the games' link
/// codes differ.
pub(super) fn check(
    c: &mut Checker,
    raw: Vec<RawLink>,
    players: &Players,
    games: &[GameConfig],
) -> Vec<LinkConfig> {
    let mut links: Vec<LinkConfig> = Vec::new();
    for (i, l) in raw.into_iter().enumerate() {
        let prefix = format!("links[{i}]");
        if let Some(link) = check_one(c, &prefix, l) {
            if links.iter().any(|other| other.id == link.id) {
                c.problem(
                    format!("{prefix}.id"),
                    format!("{:?} is used twice", link.id),
                );
            }
            links.push(link);
        }
    }
    let mut by_id: Vec<_> = players.iter().collect();
    by_id.sort_unstable_by_key(|(id, _)| *id);
    for (id, p) in by_id {
        if let Reach::Link(link) = &p.reach
            && !links.iter().any(|l| &l.id == link)
        {
            c.problem(format!("players.{id}.link"), format!("no link {link:?}"));
        }
    }
    // A code is 16 bits: among a thousand games some share one. Only games played across
    // the same link must differ (a node's local games never travel).
    let link_of = |player: &str| match players.get(player).map(|p| &p.reach) {
        Some(Reach::Link(link)) => Some(link.as_str()),
        _ => None,
    };
    let mut codes = BTreeMap::new();
    for g in games {
        let mut across: Vec<&str> = [link_of(&g.white), link_of(&g.black)]
            .into_iter()
            .flatten()
            .collect();
        across.dedup();
        for link in across {
            if let Some(other) = codes.insert((link, game_code(&g.id)), g.id.clone()) {
                c.problem(
                    "games",
                    format!(
                        "{other:?} and {:?} share a link code on link {link:?}; rename one",
                        g.id
                    ),
                );
            }
        }
    }
    links
}

/// One link; `None` when it has no usable transport (reported).
fn check_one(c: &mut Checker, prefix: &str, l: RawLink) -> Option<LinkConfig> {
    let key = |field: &str| format!("{prefix}.{field}");
    let id = c.id(&key("id"), l.id);
    let kind = match l.transport {
        None => Some(LinkKind::Tcp),
        given => c.read(&key("transport"), given),
    };
    if kind != Some(LinkKind::Serial) {
        // A serial link's table is checked whole by `serial::check`; any other still refuses
        // keys nobody knows.
        c.unknown_keys(prefix, l.serial.unknown());
    }
    let transport = match kind {
        // Refused, and reported as such.
        None => None,
        Some(LinkKind::Tcp) => match (l.connect, l.listen) {
            (Some(addr), None) => Some(LinkTransport::TcpConnect(addr)),
            (None, Some(listen)) => match listen.parse() {
                Ok(addr) => Some(LinkTransport::TcpListen(addr)),
                Err(_) => {
                    c.problem(key("listen"), format!("{listen:?} is not an address:port"));
                    None
                }
            },
            _ => {
                c.problem(
                    key("connect"),
                    "a tcp link needs connect or listen (one of them)",
                );
                None
            }
        },
        Some(LinkKind::Serial) => Some(LinkTransport::Serial(serial::check(c, prefix, l.serial))),
        Some(LinkKind::Radio) => radio_link(c, prefix, l.radio, l.peer),
    };
    let secret = c.secret(prefix, "secret", l.secret, l.secret_file, true);
    if let Some(secret) = &secret
        && secret.len() < 16
    {
        c.problem(key("secret"), "too short: at least 16 bytes");
    }
    let window = c.positive(&key("window"), l.window, 4, WINDOW_MAX) as usize;
    let tag_bytes = c.number(
        &key("tag_bytes"),
        l.tag_bytes,
        TAG_MIN,
        TAG_MAX,
        TAG_DEFAULT,
    ) as usize;
    let fec_bytes = c.number(&key("fec_bytes"), l.fec_bytes, 0, 14, 0) as usize;
    if fec_bytes % 2 == 1 {
        c.problem(
            key("fec_bytes"),
            format!("{fec_bytes} is odd: parity bytes come in pairs (each pair repairs one byte)"),
        );
    }
    let retransmit = l.retransmit_ms.map(|ms| {
        Duration::from_millis(c.positive(&key("retransmit_ms"), Some(ms), 1000, 600_000))
    });
    Some(LinkConfig {
        id,
        transport: transport?,
        secret: LinkSecret(secret.unwrap_or_default()),
        window,
        retransmit,
        tag_bytes,
        fec_bytes,
    })
}
