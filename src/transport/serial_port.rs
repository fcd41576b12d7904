//! Opening a serial port, and opening it again when it goes away.
//!
//! Shared by everything that talks down a serial line (the relay-to-relay link, a player's
//! terminal). A USB adapter can be pulled at any time: the port then reads an error or end of
//! file, and its user calls [`open_with_backoff`] until it is back, waiting longer each time so
//! a missing device does not spin the CPU or flood the log. Nothing a port carries is held only
//! in memory by this module; its users keep their own durable queues.

use tokio_serial::{SerialPortBuilderExt, SerialStream};
use tokio_util::sync::CancellationToken;

use crate::backoff::{self, Backoff};
use crate::config::{DataBits, FlowControl, Parity, SerialConfig, StopBits};

/// Opens the port once.
pub fn open(config: &SerialConfig) -> Result<SerialStream, tokio_serial::Error> {
    let parity = match config.parity {
        Parity::None => tokio_serial::Parity::None,
        Parity::Even => tokio_serial::Parity::Even,
        Parity::Odd => tokio_serial::Parity::Odd,
    };
    let data_bits = match config.data_bits {
        DataBits::Five => tokio_serial::DataBits::Five,
        DataBits::Six => tokio_serial::DataBits::Six,
        DataBits::Seven => tokio_serial::DataBits::Seven,
        DataBits::Eight => tokio_serial::DataBits::Eight,
    };
    let stop_bits = match config.stop_bits {
        StopBits::One => tokio_serial::StopBits::One,
        StopBits::Two => tokio_serial::StopBits::Two,
    };
    let flow_control = match config.flow_control {
        FlowControl::None => tokio_serial::FlowControl::None,
        FlowControl::Software => tokio_serial::FlowControl::Software,
        FlowControl::Hardware => tokio_serial::FlowControl::Hardware,
    };
    tokio_serial::new(&config.device, config.baud)
        .parity(parity)
        .data_bits(data_bits)
        .stop_bits(stop_bits)
        .flow_control(flow_control)
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
