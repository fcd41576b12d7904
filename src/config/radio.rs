//! `[[radio]]`: a packet radio port, a KISS TNC reached over TCP (Direwolf's KISS port, a
//! hardware TNC behind a serial-to-TCP bridge) or a serial line (a hardware TNC in KISS mode),
//! with the station's callsign, its digipeater path, the TNC's timing and the transmit budget
//! that keeps the relay from hogging a shared frequency (docs/radio.md).

use std::time::Duration;

use serde::Deserialize;

use super::check::{Checker, valid_callsign};
use super::links::{LinkConfig, LinkTransport};
use super::serial::{self, RawSerial, SerialConfig};

/// A radio port as the file writes it, with a serial line's keys beside its own (read only
/// when `tnc` is not given).
#[derive(Deserialize)]
pub(super) struct RawRadio {
    id: Option<String>,
    tnc: Option<String>,
    callsign: Option<String>,
    path: Option<String>,
    txdelay_ms: Option<i64>,
    persistence: Option<i64>,
    slot_ms: Option<i64>,
    budget_bytes_per_minute: Option<i64>,
    queue_frames: Option<i64>,
    aprs: Option<bool>,
    aprs_retries: Option<i64>,
    aprs_retry_seconds: Option<i64>,
    #[serde(flatten)]
    serial: RawSerial,
}

/// A packet radio port.
#[derive(Clone, Debug)]
pub struct RadioConfig {
    pub id: String,
    pub tnc: Tnc,
    /// The station's callsign and SSID (`N0CALL-1`): the source of every frame it sends.
    pub callsign: String,
    /// Digipeaters every frame asks for (`WIDE1-1,WIDE2-1`); empty for none.
    pub path: Vec<String>,
    /// The TNC's settings, sent to it when the port opens; `None` leaves the TNC's own.
    pub txdelay: Option<Duration>,
    /// p-persistence, 0 to 255: the TNC sends in a free slot with chance (p + 1) / 256.
    pub persistence: Option<u8>,
    pub slot: Option<Duration>,
    /// Bytes on air a minute, at most, on average (a token bucket a minute deep).
    pub budget_bytes_per_minute: u32,
    /// Frames waiting for the TNC or for the budget, at most; a sender finds the queue full
    /// beyond that and tries again later (the link and the outbox resend).
    pub queue_frames: usize,
    /// Players by APRS message on this port: messages to the station's callsign are read,
    /// acknowledged and answered (docs/radio.md, "A player by APRS message").
    pub aprs: Option<AprsSettings>,
}

/// How a port resends what it tells players by APRS message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AprsSettings {
    /// Times a message is sent before it waits for its player to be heard again.
    pub retries: u32,
    /// The wait before the first resend; each further one waits twice as long.
    pub retry_after: Duration,
}

/// How the TNC is reached.
#[derive(Clone, Debug)]
pub enum Tnc {
    /// KISS over TCP at `host:port`.
    Tcp(String),
    Serial(SerialConfig),
}

/// 1200 baud is 150 bytes a second; a quarter of a minute's air is the default budget.
const BUDGET_DEFAULT: u64 = 2250;

/// Checks `[[radio]]`, and that each link over radio names one of its ports.
pub(super) fn check(c: &mut Checker, raw: Vec<RawRadio>, links: &[LinkConfig]) -> Vec<RadioConfig> {
    let mut ports: Vec<RadioConfig> = Vec::new();
    for (i, r) in raw.into_iter().enumerate() {
        let port = check_one(c, &format!("radio[{i}]"), r);
        if ports.iter().any(|p| p.id == port.id) {
            c.problem(
                format!("radio[{i}].id"),
                format!("{:?} is used twice", port.id),
            );
        }
        ports.push(port);
    }
    for (i, link) in links.iter().enumerate() {
        if let LinkTransport::Radio { port, .. } = &link.transport
            && !ports.iter().any(|p| &p.id == port)
        {
            c.problem(
                format!("links[{i}].radio"),
                format!("no [[radio]] with id {port:?}"),
            );
        }
    }
    ports
}

fn check_one(c: &mut Checker, prefix: &str, r: RawRadio) -> RadioConfig {
    let key = |field: &str| format!("{prefix}.{field}");
    let id = c.id(&key("id"), r.id);
    let tnc = match r.tnc {
        Some(addr) => {
            c.unknown_keys(prefix, r.serial.unknown());
            Tnc::Tcp(addr)
        }
        None => Tnc::Serial(serial::check(c, prefix, r.serial)),
    };
    let callsign = c
        .required(&key("callsign"), r.callsign)
        .to_ascii_uppercase();
    if !valid_callsign(&callsign) {
        c.problem(
            key("callsign"),
            format!("{callsign:?} is not a callsign: 1 to 6 letters or digits, then -1 to -15"),
        );
    }
    let path: Vec<String> = r
        .path
        .unwrap_or_default()
        .split(',')
        .map(|hop| hop.trim().to_ascii_uppercase())
        .filter(|hop| !hop.is_empty())
        .collect();
    if path.len() > 8 || !path.iter().all(|hop| valid_callsign(hop)) {
        c.problem(
            key("path"),
            "at most 8 digipeaters, callsigns separated by commas",
        );
    }
    let ms = |c: &mut Checker, field: &str, v: Option<i64>| {
        v.map(|v| Duration::from_millis(c.number(&key(field), Some(v), 0, 2550, 0)))
    };
    let txdelay = ms(c, "txdelay_ms", r.txdelay_ms);
    let slot = ms(c, "slot_ms", r.slot_ms);
    let persistence = r
        .persistence
        .map(|p| c.number(&key("persistence"), Some(p), 0, 255, 63) as u8);
    RadioConfig {
        id,
        tnc,
        callsign,
        path,
        txdelay,
        persistence,
        slot,
        budget_bytes_per_minute: c.positive(
            &key("budget_bytes_per_minute"),
            r.budget_bytes_per_minute,
            BUDGET_DEFAULT,
            9000,
        ) as u32,
        queue_frames: c.positive(&key("queue_frames"), r.queue_frames, 64, 4096) as usize,
        aprs: r.aprs.unwrap_or(false).then(|| AprsSettings {
            retries: c.positive(&key("aprs_retries"), r.aprs_retries, 5, 20) as u32,
            retry_after: Duration::from_secs(c.positive(
                &key("aprs_retry_seconds"),
                r.aprs_retry_seconds,
                30,
                3600,
            )),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn callsigns_follow_ax25s_rule() {
        for good in ["N0CALL", "N0CALL-7", "WIDE2-1", "R3ABC-15"] {
            assert!(valid_callsign(good), "{good}");
        }
        for bad in [
            "",
            "N0CALL-16",
            "TOOLONG",
            "N0CALL-",
            "n0call",
            "N0-CALL-1",
            "N0CALL-+1",
        ] {
            assert!(!valid_callsign(bad), "{bad}");
        }
    }

    #[test]
    fn a_port_is_read_and_every_bad_key_named() {
        let good = "[[radio]]\nid = \"vhf\"\ntnc = \"127.0.0.1:8001\"\ncallsign = \"n0call-1\"\npath = \"WIDE1-1, WIDE2-1\"\ntxdelay_ms = 300\n";
        let config = super::super::Config::from_toml(good, Path::new(".")).expect("valid");
        let port = &config.radio[0];
        assert_eq!(port.callsign, "N0CALL-1");
        assert_eq!(port.path, ["WIDE1-1", "WIDE2-1"]);
        assert_eq!(port.txdelay, Some(Duration::from_millis(300)));
        assert_eq!(port.budget_bytes_per_minute, 2250);
        let bad = "[[radio]]\nid = \"vhf\"\ntnc = \"x:1\"\ncallsign = \"NOT A CALL\"\npath = \"WIDE1-99\"\npersistence = 300\nbudget_bytes_per_minute = 0\nbogus = 1\n[[links]]\nid = \"peer\"\ntransport = \"radio\"\nradio = \"uhf\"\npeer = \"N0CALL-2\"\nsecret = \"a shared secret of the two clubs\"\n";
        let err = super::super::Config::from_toml(bad, Path::new(".")).unwrap_err();
        let keys: Vec<&str> = err.problems.iter().map(|p| p.key.as_str()).collect();
        for key in [
            "radio[0].callsign",
            "radio[0].path",
            "radio[0].persistence",
            "radio[0].budget_bytes_per_minute",
            "radio[0].bogus",
            "links[0].radio",
        ] {
            assert!(keys.contains(&key), "{key} not in {keys:?}");
        }
    }
}
