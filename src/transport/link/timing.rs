//! The session's timers, from the line's speed or a fixed retransmission timeout.

use std::time::Duration;

/// The session's timers.
#[derive(Clone, Debug)]
pub struct Timing {
    /// Between HELLOs while no session is established.
    pub hello: Duration,
    /// The retransmission timeout before the round trip is measured.
    pub rto: Duration,
    /// The retransmission timeout never goes below this.
    pub rto_min: Duration,
    /// Nor above this, however the round trip varies (backoff apart): the time a full window
    /// takes to cross the line and its acknowledgement to come back.
    pub rto_cap: Duration,
    /// Cap on the retransmission timeout after backoff.
    pub rto_max: Duration,
    /// How long a standalone ACK waits for a DATA frame to ride on.
    pub ack_delay: Duration,
    /// An ACK is sent after this long without sending anything.
    pub keepalive: Duration,
    /// A session that has heard nothing valid for this long is started again.
    pub dead: Duration,
    /// The line's speed: a frame is counted as sent when its last byte has left, after what
    /// was written before it, so neither the round trip measured nor a timeout includes this
    /// end's own queue.
    pub bytes_per_second: f64,
}

impl Timing {
    /// Timers for a line of `bytes_per_second`. The first timeout covers a window of frames
    /// out and an ACK back; the floor, two of the longest move frames and an ACK's delay.
    pub fn for_line(bytes_per_second: f64, window: usize) -> Timing {
        let frame = 20.0 / bytes_per_second.max(1.0);
        let rto = Duration::from_secs_f64(0.5 + frame * (window as f64 + 2.0));
        let ack_delay = Duration::from_millis(100);
        let rto_min = Duration::from_secs_f64(0.2 + 2.0 * frame) + ack_delay;
        Timing {
            // A HELLO is 45 bytes: twice its time on the line, and no less than a second.
            hello: Duration::from_secs_f64((90.0 / bytes_per_second.max(1.0)).max(1.0)),
            rto,
            rto_min,
            rto_cap: rto.max(rto_min),
            rto_max: (rto * 8).max(Duration::from_secs(20)),
            ack_delay,
            keepalive: rto * 5,
            dead: rto * 20,
            bytes_per_second,
        }
    }

    /// Timers for a TCP connection, whose path's speed is not known: a LAN, or a radio modem or
    /// a satellite hop behind the sockets' buffers. Taken as fast (10 kB/s) for the HELLO
    /// period and the liveness timers; the retransmission timeout starts at a second (as
    /// TCP's, RFC 6298), never goes below half a second (a frame's acknowledgement may wait
    /// for a commit and for a DATA frame to ride on), and otherwise follows the round trip
    /// measured, however long.
    pub fn for_tcp(window: usize) -> Timing {
        let mut timing = Timing::for_line(10_000.0, window);
        timing.rto = Duration::from_secs(1);
        timing.rto_min = Duration::from_millis(500);
        timing.rto_cap = timing.rto;
        timing
    }

    /// Timers for a half-duplex 1200-baud radio channel shared with other stations
    /// (docs/radio.md): a frame takes 0.8–1.8 s one way (the transmitter's preamble, carrier
    /// sense, the frame), so the first timeout covers a frame out and its answer back with room
    /// for a busy channel, an acknowledgement waits half a second for a move to ride on, and
    /// the link keeps quiet when idle (a keepalive a minute, where a wire's are seconds apart).
    pub fn for_radio() -> Timing {
        Timing {
            hello: Duration::from_secs(8),
            rto: Duration::from_secs(6),
            rto_min: Duration::from_secs(3),
            rto_cap: Duration::from_secs(15),
            rto_max: Duration::from_secs(60),
            ack_delay: Duration::from_millis(500),
            keepalive: Duration::from_secs(60),
            dead: Duration::from_secs(300),
            bytes_per_second: 150.0,
        }
    }

    /// Timers around a fixed retransmission timeout (the `retransmit_ms` setting): it is both
    /// the first timeout and the floor.
    pub fn fixed(rto: Duration, bytes_per_second: f64) -> Timing {
        Timing {
            hello: rto,
            rto,
            rto_min: rto,
            rto_cap: rto * 4,
            rto_max: (rto * 8).max(Duration::from_secs(5)),
            ack_delay: (rto / 4).min(Duration::from_millis(100)),
            keepalive: rto * 5,
            dead: rto * 20,
            bytes_per_second,
        }
    }
}
