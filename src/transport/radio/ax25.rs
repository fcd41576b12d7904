//! AX.25 UI frames, as KISS carries them (no flags, no bit stuffing, no FCS: the TNC adds and
//! checks the CRC): the only kind of frame the relay sends or reads.
//!
//! Owned rather than taken from the `ax25` crate: the relay needs UI frames only (connected
//! mode costs a move about 10 s of channel time against 1–2 s as UI frames, docs/radio.md),
//! and the few rules it needs (addresses shifted one bit, the command/response bits, the
//! "has been repeated" bit of a digipeater) fit in this file with their tests. Anything else
//! on the frequency (I and S frames, other PIDs' traffic) decodes as [`Ax25Error::NotUi`] and
//! is ignored by the caller.

use std::fmt;
use std::str::FromStr;

/// The most digipeaters a frame may name.
pub const MAX_PATH: usize = 8;
/// The longest information field.
pub const MAX_INFO: usize = 256;
/// The control byte of a UI frame (poll bit clear).
const CONTROL_UI: u8 = 0x03;
/// "No layer 3": APRS and the node link.
pub const PID_NO_L3: u8 = 0xF0;

/// A station's callsign and SSID (`N0CALL-7`): one to six upper-case letters or digits, and a
/// number from 0 to 15 (written only when not 0).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Callsign {
    call: String,
    ssid: u8,
}

/// Why bytes or a text are not what they should be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Ax25Error {
    #[error("a callsign is 1 to 6 letters or digits, then -0 to -15: {0:?}")]
    Callsign(String),
    #[error("the frame ends inside its addresses")]
    Short,
    #[error("more than {MAX_PATH} digipeaters")]
    PathTooLong,
    #[error("information field longer than {MAX_INFO} bytes")]
    InfoTooLong,
    #[error("not a UI frame (control {0:#04x})")]
    NotUi(u8),
}

impl Callsign {
    pub fn new(call: &str, ssid: u8) -> Result<Callsign, Ax25Error> {
        let ok = (1..=6).contains(&call.len())
            && call
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            && ssid <= 15;
        if !ok {
            return Err(Ax25Error::Callsign(format!("{call}-{ssid}")));
        }
        Ok(Callsign {
            call: call.to_owned(),
            ssid,
        })
    }

    /// The callsign without its SSID.
    pub fn call(&self) -> &str {
        &self.call
    }

    pub fn ssid(&self) -> u8 {
        self.ssid
    }

    /// The seven bytes of an address field: the letters shifted left one bit and padded with
    /// spaces, then `C R R S S S S E` (reserved bits set, as everyone sends them).
    fn encode(&self, high_bit: bool, last: bool) -> [u8; 7] {
        let mut out = [b' ' << 1; 7];
        for (slot, b) in out.iter_mut().zip(self.call.bytes()) {
            *slot = b << 1;
        }
        out[6] = u8::from(high_bit) << 7 | 0x60 | self.ssid << 1 | u8::from(last);
        out
    }

    /// Reads an address field; the high bit of its last byte (C or H) is returned beside it.
    fn decode(field: &[u8]) -> Result<(Callsign, bool), Ax25Error> {
        let letters: String = field[..6]
            .iter()
            .map(|b| char::from(b >> 1))
            .collect::<String>()
            .trim_end_matches(' ')
            .to_owned();
        let ssid = (field[6] >> 1) & 0x0F;
        let sign = Callsign::new(&letters, ssid).map_err(|_| {
            let shown: String = letters.chars().filter(char::is_ascii_graphic).collect();
            Ax25Error::Callsign(format!("{shown}-{ssid}"))
        })?;
        Ok((sign, field[6] & 0x80 != 0))
    }
}

impl FromStr for Callsign {
    type Err = Ax25Error;

    /// `N0CALL`, `N0CALL-7`; lower case is taken as upper case.
    fn from_str(text: &str) -> Result<Callsign, Ax25Error> {
        let upper = text.trim().to_ascii_uppercase();
        let (call, ssid) = match upper.split_once('-') {
            None => (upper.as_str(), 0),
            Some((call, ssid)) => {
                let bad = || Ax25Error::Callsign(text.to_owned());
                let digits_ok =
                    (1..=2).contains(&ssid.len()) && ssid.bytes().all(|b| b.is_ascii_digit());
                let n = ssid
                    .parse::<u8>()
                    .ok()
                    .filter(|_| digits_ok)
                    .ok_or_else(bad)?;
                (call, n)
            }
        };
        Callsign::new(call, ssid).map_err(|_| Ax25Error::Callsign(text.to_owned()))
    }
}

impl fmt::Display for Callsign {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ssid {
            0 => f.write_str(&self.call),
            n => write!(f, "{}-{n}", self.call),
        }
    }
}

/// A digipeater in a frame's path, and whether it has repeated the frame already (the H bit:
/// a station hearing a digipeater's copy sees the path used so far).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hop {
    pub station: Callsign,
    pub repeated: bool,
}

/// A UI frame: an unconnected frame, sent once, acknowledged by nobody but the application.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UiFrame {
    pub destination: Callsign,
    pub source: Callsign,
    pub path: Vec<Hop>,
    pub pid: u8,
    pub info: Vec<u8>,
}

impl UiFrame {
    /// A command frame (version 2: C set in the destination, clear in the source).
    pub fn encode(&self) -> Result<Vec<u8>, Ax25Error> {
        if self.path.len() > MAX_PATH {
            return Err(Ax25Error::PathTooLong);
        }
        if self.info.len() > MAX_INFO {
            return Err(Ax25Error::InfoTooLong);
        }
        let mut out = Vec::with_capacity(16 + 7 * self.path.len() + self.info.len());
        out.extend_from_slice(&self.destination.encode(true, false));
        out.extend_from_slice(&self.source.encode(false, self.path.is_empty()));
        for (i, hop) in self.path.iter().enumerate() {
            let last = i + 1 == self.path.len();
            out.extend_from_slice(&hop.station.encode(hop.repeated, last));
        }
        out.extend_from_slice(&[CONTROL_UI, self.pid]);
        out.extend_from_slice(&self.info);
        Ok(out)
    }

    /// Reads a frame as a TNC hands it up. Anything but a UI frame is [`Ax25Error::NotUi`].
    pub fn decode(bytes: &[u8]) -> Result<UiFrame, Ax25Error> {
        let mut fields = Vec::new();
        let mut at = 0;
        loop {
            let field = bytes.get(at..at + 7).ok_or(Ax25Error::Short)?;
            fields.push(field);
            at += 7;
            if field[6] & 1 == 1 {
                break;
            }
            if fields.len() == 2 + MAX_PATH {
                return Err(Ax25Error::PathTooLong);
            }
        }
        if fields.len() < 2 {
            return Err(Ax25Error::Short);
        }
        let control = *bytes.get(at).ok_or(Ax25Error::Short)?;
        // The poll/final bit (0x10) does not change a UI frame's meaning.
        if control & !0x10 != CONTROL_UI {
            return Err(Ax25Error::NotUi(control));
        }
        let pid = *bytes.get(at + 1).ok_or(Ax25Error::Short)?;
        let info = &bytes[at + 2..];
        if info.len() > MAX_INFO {
            return Err(Ax25Error::InfoTooLong);
        }
        let (destination, _) = Callsign::decode(fields[0])?;
        let (source, _) = Callsign::decode(fields[1])?;
        let path = fields[2..]
            .iter()
            .map(|f| Callsign::decode(f).map(|(station, repeated)| Hop { station, repeated }))
            .collect::<Result<_, _>>()?;
        Ok(UiFrame {
            destination,
            source,
            path,
            pid,
            info: info.to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sign(text: &str) -> Callsign {
        text.parse().expect("callsign")
    }

    #[test]
    fn callsigns_read_and_write() {
        let cases: &[(&str, Option<&str>)] = &[
            ("N0CALL", Some("N0CALL")),
            ("n0call-7", Some("N0CALL-7")),
            ("N0CALL-0", Some("N0CALL")),
            ("WIDE2-1", Some("WIDE2-1")),
            ("A-15", Some("A-15")),
            ("A-16", None),
            ("TOOLONG1", None),
            ("N0CALL-", None),
            ("N0-CALL-1", None),
            ("N0CALL-+1", None),
            ("", None),
            ("N0 CAL", None),
            ("R3ÄBC", None),
        ];
        for (text, want) in cases {
            let got = text.parse::<Callsign>().ok().map(|c| c.to_string());
            assert_eq!(got.as_deref(), *want, "{text}");
        }
    }

    /// The frame Direwolf's `decode_aprs` reads as `N0CALL-7>APZCCR,WIDE1-1:>hi`.
    #[test]
    fn a_frame_is_the_bytes_direwolf_reads() {
        let frame = UiFrame {
            destination: sign("APZCCR"),
            source: sign("N0CALL-7"),
            path: vec![Hop {
                station: sign("WIDE1-1"),
                repeated: false,
            }],
            pid: PID_NO_L3,
            info: b">hi".to_vec(),
        };
        let bytes = frame.encode().expect("encodes");
        assert_eq!(
            hex::encode(&bytes),
            "82a0b48686a4e0\
             9c60868298986e\
             ae92888a624063\
             03f03e6869"
        );
        assert_eq!(UiFrame::decode(&bytes), Ok(frame));
    }

    #[test]
    fn other_frames_and_short_ones_are_refused() {
        let mut bytes = UiFrame {
            destination: sign("B"),
            source: sign("A"),
            path: vec![],
            pid: PID_NO_L3,
            info: vec![],
        }
        .encode()
        .expect("encodes");
        assert!(UiFrame::decode(&bytes).is_ok());
        bytes[14] = 0x3F; // SABM
        assert_eq!(UiFrame::decode(&bytes), Err(Ax25Error::NotUi(0x3F)));
        assert_eq!(UiFrame::decode(&bytes[..14]), Err(Ax25Error::Short));
        assert_eq!(UiFrame::decode(&bytes[..10]), Err(Ax25Error::Short));
        let endless = [0x82u8; 7 * 12];
        assert_eq!(UiFrame::decode(&endless), Err(Ax25Error::PathTooLong));
    }

    fn callsign() -> impl Strategy<Value = Callsign> {
        ("[A-Z0-9]{1,6}", 0u8..16).prop_map(|(c, s)| Callsign::new(&c, s).expect("valid"))
    }

    proptest! {
        #[test]
        fn frames_round_trip(
            destination in callsign(),
            source in callsign(),
            path in proptest::collection::vec((callsign(), any::<bool>()), 0..=MAX_PATH),
            pid in any::<u8>(),
            info in proptest::collection::vec(any::<u8>(), 0..=MAX_INFO),
        ) {
            let path = path.into_iter().map(|(station, repeated)| Hop { station, repeated }).collect();
            let frame = UiFrame { destination, source, path, pid, info };
            let bytes = frame.encode().expect("within bounds");
            prop_assert_eq!(UiFrame::decode(&bytes), Ok(frame));
        }

        #[test]
        fn any_bytes_decode_without_a_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            if let Ok(frame) = UiFrame::decode(&bytes) {
                prop_assert!(frame.path.len() <= MAX_PATH && frame.info.len() <= MAX_INFO);
            }
        }
    }
}
