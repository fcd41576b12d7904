//! A serial line's settings: `[[terminals]]` (a player's terminal on a line) and, with the
//! same keys read by the same code, `[[links]]` with `transport = "serial"`.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

use super::check::{Checker, Field};

/// A serial line as the file writes it. Links flatten it into their own table, so it cannot
/// use `deny_unknown_fields` (serde does not combine it with `flatten`): the keys it does not
/// know land in `unknown` and are refused by the checker, by key.
#[derive(Deserialize, Default)]
pub(super) struct RawSerial {
    device: Option<Field<String>>,
    baud: Option<Field<i64>>,
    parity: Option<Field<Parity>>,
    data_bits: Option<Field<DataBits>>,
    stop_bits: Option<Field<StopBits>>,
    flow_control: Option<Field<FlowControl>>,
    exclusive: Option<Field<bool>>,
    #[serde(flatten)]
    unknown: BTreeMap<String, toml::Value>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Parity {
    None,
    Even,
    Odd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FlowControl {
    None,
    /// XON/XOFF.
    #[serde(alias = "xonxoff")]
    Software,
    /// RTS/CTS.
    #[serde(alias = "rtscts")]
    Hardware,
}

/// Data bits per character, 5 to 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "i64")]
pub enum DataBits {
    Five,
    Six,
    Seven,
    Eight,
}

impl DataBits {
    pub fn count(self) -> u8 {
        match self {
            DataBits::Five => 5,
            DataBits::Six => 6,
            DataBits::Seven => 7,
            DataBits::Eight => 8,
        }
    }
}

impl TryFrom<i64> for DataBits {
    type Error = String;

    fn try_from(bits: i64) -> Result<DataBits, String> {
        match bits {
            5 => Ok(DataBits::Five),
            6 => Ok(DataBits::Six),
            7 => Ok(DataBits::Seven),
            8 => Ok(DataBits::Eight),
            other => Err(format!("{other}: 5, 6, 7 or 8")),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "i64")]
pub enum StopBits {
    One,
    Two,
}

impl TryFrom<i64> for StopBits {
    type Error = String;

    fn try_from(bits: i64) -> Result<StopBits, String> {
        match bits {
            1 => Ok(StopBits::One),
            2 => Ok(StopBits::Two),
            other => Err(format!("{other}: 1 or 2")),
        }
    }
}

impl RawSerial {
    /// The keys of the table that are not a serial line's.
    pub(super) fn unknown(&self) -> &BTreeMap<String, toml::Value> {
        &self.unknown
    }
}

/// How to open one serial port: the device and its line settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SerialConfig {
    /// `/dev/ttyUSB0`, `/dev/ttyS0`, a pseudo-terminal in tests.
    pub device: String,
    pub baud: u32,
    pub parity: Parity,
    pub data_bits: DataBits,
    pub stop_bits: StopBits,
    pub flow_control: FlowControl,
    /// Lock the port against other openers (`TIOCEXCL` and `flock`). On by default; off only
    /// where another process must keep the device open too (a pseudo-terminal in a test).
    pub exclusive: bool,
}

impl SerialConfig {
    /// 8N1, no flow control, exclusive: the common line.
    pub fn new(device: impl Into<String>, baud: u32) -> SerialConfig {
        SerialConfig {
            device: device.into(),
            baud,
            parity: Parity::None,
            data_bits: DataBits::Eight,
            stop_bits: StopBits::One,
            flow_control: FlowControl::None,
            exclusive: true,
        }
    }

    /// Bytes per second the line carries: start bit, data bits, parity bit, stop bits per byte.
    pub fn bytes_per_second(&self) -> f64 {
        let data = f64::from(self.data_bits.count());
        let parity = if self.parity == Parity::None {
            0.0
        } else {
            1.0
        };
        let stop = if self.stop_bits == StopBits::One {
            1.0
        } else {
            2.0
        };
        f64::from(self.baud) / (1.0 + data + parity + stop)
    }
}

impl fmt::Display for SerialConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parity = match self.parity {
            Parity::None => 'N',
            Parity::Even => 'E',
            Parity::Odd => 'O',
        };
        let data = self.data_bits.count();
        let stop = if self.stop_bits == StopBits::One {
            1
        } else {
            2
        };
        write!(f, "{} {} {data}{parity}{stop}", self.device, self.baud)
    }
}

/// Checks one serial line under `prefix` (`terminals[0]`, `links[1]`): 8N1 without flow
/// control, 9600 baud and exclusive unless said otherwise.
pub(super) fn check(c: &mut Checker, prefix: &str, raw: RawSerial) -> SerialConfig {
    let key = |field: &str| format!("{prefix}.{field}");
    c.unknown_keys(prefix, &raw.unknown);
    let unreadable = matches!(raw.device, Some(Field::Bad(_)));
    let device = c.read(&key("device"), raw.device);
    let device = if unreadable {
        String::new()
    } else {
        c.required(&key("device"), device)
    };
    let baud = c.read(&key("baud"), raw.baud);
    let baud = c.number(&key("baud"), baud, 50, 4_000_000, 9600) as u32;
    let mut serial = SerialConfig::new(device, baud);
    if let Some(parity) = c.read(&key("parity"), raw.parity) {
        serial.parity = parity;
    }
    if let Some(bits) = c.read(&key("data_bits"), raw.data_bits) {
        serial.data_bits = bits;
    }
    if let Some(bits) = c.read(&key("stop_bits"), raw.stop_bits) {
        serial.stop_bits = bits;
    }
    if let Some(flow) = c.read(&key("flow_control"), raw.flow_control) {
        serial.flow_control = flow;
    }
    if let Some(exclusive) = c.read(&key("exclusive"), raw.exclusive) {
        serial.exclusive = exclusive;
    }
    serial
}

/// Checks `[[terminals]]`; a device is used once.
pub(super) fn check_terminals(c: &mut Checker, raw: Vec<RawSerial>) -> Vec<SerialConfig> {
    let mut terminals: Vec<SerialConfig> = Vec::new();
    for (i, t) in raw.into_iter().enumerate() {
        let prefix = format!("terminals[{i}]");
        let serial = check(c, &prefix, t);
        if terminals.iter().any(|other| other.device == serial.device) {
            c.problem(
                format!("{prefix}.device"),
                format!("{:?} is used twice", serial.device),
            );
        }
        terminals.push(serial);
    }
    terminals
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn read(text: &str) -> Result<SerialConfig, crate::config::ConfigError> {
        let raw: RawSerial = toml::from_str(text).expect("toml");
        let mut c = Checker::new(Path::new("."));
        let serial = check(&mut c, "t", raw);
        c.finish(serial)
    }

    #[test]
    fn eight_n_one_at_300_baud_is_30_bytes_a_second() {
        let c = SerialConfig::new("/dev/null", 300);
        assert!((c.bytes_per_second() - 30.0).abs() < 1e-9);
        assert_eq!(c.to_string(), "/dev/null 300 8N1");
    }

    #[test]
    fn settings_are_read_or_refused_with_the_choices() {
        let serial = read(
            "device = \"/dev/x\"\nparity = \"even\"\ndata_bits = 7\nstop_bits = 2\nflow_control = \"rtscts\"",
        )
        .unwrap();
        assert_eq!(serial.parity, Parity::Even);
        assert_eq!(serial.data_bits, DataBits::Seven);
        assert_eq!(serial.stop_bits, StopBits::Two);
        assert_eq!(serial.flow_control, FlowControl::Hardware);
        assert_eq!(serial.to_string(), "/dev/x 9600 7E2");
        // Start, 7 data, parity and 2 stop bits: 11 bits a character.
        assert!((serial.bytes_per_second() - 9600.0 / 11.0).abs() < 1e-9);

        let err = read("parity = \"mark\"\ndata_bits = 9\nstop_bits = 3\nbaud = 10").unwrap_err();
        let keys: Vec<&str> = err.problems.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "t.device",
                "t.baud",
                "t.parity",
                "t.data_bits",
                "t.stop_bits"
            ],
            "{err}"
        );
        assert!(
            err.to_string()
                .contains("t.baud: 10 is out of range (50 to 4000000)"),
            "{err}"
        );
    }
}
