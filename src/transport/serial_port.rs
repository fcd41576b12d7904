//! Opening a serial port, and opening it again when it goes away.
//!
//! Shared by everything that talks down a serial line (the relay-to-relay link, a player's
//! terminal). A USB adapter can be pulled at any time: the port then reads an error or end of
//! file, and its user calls [`open_with_backoff`] until it is back, waiting longer each time so
//! a missing device does not spin the CPU or flood the log. Nothing a port carries is held only
//! in memory by this module; its users keep their own durable queues.

use std::fmt;

use tokio_serial::{DataBits, FlowControl, Parity, SerialPortBuilderExt, SerialStream, StopBits};
use tokio_util::sync::CancellationToken;

use crate::backoff::{self, Backoff};

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
        let data = match self.data_bits {
            DataBits::Five => 5.0,
            DataBits::Six => 6.0,
            DataBits::Seven => 7.0,
            DataBits::Eight => 8.0,
        };
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

    /// Reads the settings as a configuration file writes them; `Err` names what is wrong.
    pub fn parse_parity(text: &str) -> Result<Parity, String> {
        match text {
            "none" => Ok(Parity::None),
            "even" => Ok(Parity::Even),
            "odd" => Ok(Parity::Odd),
            other => Err(format!("{other:?}: say \"none\", \"even\" or \"odd\"")),
        }
    }

    pub fn parse_data_bits(bits: i64) -> Result<DataBits, String> {
        match bits {
            5 => Ok(DataBits::Five),
            6 => Ok(DataBits::Six),
            7 => Ok(DataBits::Seven),
            8 => Ok(DataBits::Eight),
            other => Err(format!("{other}: 5, 6, 7 or 8")),
        }
    }

    pub fn parse_stop_bits(bits: i64) -> Result<StopBits, String> {
        match bits {
            1 => Ok(StopBits::One),
            2 => Ok(StopBits::Two),
            other => Err(format!("{other}: 1 or 2")),
        }
    }

    pub fn parse_flow_control(text: &str) -> Result<FlowControl, String> {
        match text {
            "none" => Ok(FlowControl::None),
            "software" | "xonxoff" => Ok(FlowControl::Software),
            "hardware" | "rtscts" => Ok(FlowControl::Hardware),
            other => Err(format!(
                "{other:?}: say \"none\", \"software\" (XON/XOFF) or \"hardware\" (RTS/CTS)"
            )),
        }
    }
}

impl fmt::Display for SerialConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parity = match self.parity {
            Parity::None => 'N',
            Parity::Even => 'E',
            Parity::Odd => 'O',
        };
        let data = match self.data_bits {
            DataBits::Five => 5,
            DataBits::Six => 6,
            DataBits::Seven => 7,
            DataBits::Eight => 8,
        };
        let stop = if self.stop_bits == StopBits::One {
            1
        } else {
            2
        };
        write!(f, "{} {} {data}{parity}{stop}", self.device, self.baud)
    }
}

/// Opens the port once.
pub fn open(config: &SerialConfig) -> Result<SerialStream, tokio_serial::Error> {
    tokio_serial::new(&config.device, config.baud)
        .parity(config.parity)
        .data_bits(config.data_bits)
        .stop_bits(config.stop_bits)
        .flow_control(config.flow_control)
        .exclusive(config.exclusive)
        .open_native_async()
}

/// Opens the port, trying again after each failure with `backoff`, until it opens or
/// `shutdown` is cancelled (then `None`). Each failure is logged once per attempt at `warn`.
pub async fn open_with_backoff(
    config: &SerialConfig,
    backoff: &mut Backoff,
    shutdown: &CancellationToken,
) -> Option<SerialStream> {
    loop {
        match open(config) {
            Ok(port) => {
                backoff.reset();
                tracing::info!(port = %config, "serial port open");
                return Some(port);
            }
            Err(e) => {
                let wait = backoff.next_delay();
                tracing::warn!(port = %config, error = %e, retry_in = ?wait, "cannot open serial port");
                backoff::sleep(wait, shutdown).await.ok()?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn eight_n_one_at_300_baud_is_30_bytes_a_second() {
        let c = SerialConfig::new("/dev/null", 300);
        assert!((c.bytes_per_second() - 30.0).abs() < 1e-9);
        assert_eq!(c.to_string(), "/dev/null 300 8N1");
    }

    #[test]
    fn settings_are_read_or_refused_with_the_choices() {
        assert_eq!(SerialConfig::parse_parity("even"), Ok(Parity::Even));
        assert!(SerialConfig::parse_parity("mark").is_err());
        assert_eq!(SerialConfig::parse_data_bits(7), Ok(DataBits::Seven));
        assert!(SerialConfig::parse_data_bits(9).is_err());
        assert!(SerialConfig::parse_stop_bits(3).is_err());
        assert_eq!(
            SerialConfig::parse_flow_control("rtscts"),
            Ok(FlowControl::Hardware)
        );
    }

    #[tokio::test]
    async fn a_missing_device_is_retried_until_shutdown() {
        let config = SerialConfig::new("/nonexistent/ccrelay-tty", 300);
        let shutdown = CancellationToken::new();
        let stop = shutdown.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(150)).await;
            stop.cancel();
        });
        let mut backoff = Backoff::new(Duration::from_millis(20), Duration::from_millis(40));
        let opened = tokio::time::timeout(
            Duration::from_secs(5),
            open_with_backoff(&config, &mut backoff, &shutdown),
        )
        .await
        .expect("returns at shutdown");
        assert!(opened.is_none());
    }

    #[tokio::test]
    async fn a_pseudo_terminal_opens_by_name() {
        use tokio_serial::SerialPort;
        let (_master, slave) = SerialStream::pair().expect("pty pair");
        let name = slave.name().expect("slave name");
        let mut config = SerialConfig::new(name, 9600);
        config.exclusive = false;
        assert!(open(&config).is_ok());
    }
}
