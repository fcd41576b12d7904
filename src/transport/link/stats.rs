//! What a link session counts: frames and bytes by what they were for, resends, repairs,
//! replays. Read by the link's log line, `/metrics` and the benchmarks.

/// Counts for the log and the benchmark.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub frames_out: u64,
    pub bytes_out: u64,
    pub data_out: u64,
    pub acks_out: u64,
    pub retransmissions: u64,
    pub fast_retransmissions: u64,
    pub frames_in: u64,
    pub bad_frames: u64,
    pub replays: u64,
    pub sessions: u64,
    /// Retransmission timeouts, resends after a NAK, and copies of messages this end held
    /// already (the peer's needless resends, or resends after a lost acknowledgement).
    pub timeouts: u64,
    pub nak_resends: u64,
    pub repeats_in: u64,
    /// Frames whose error correction repaired damaged bytes.
    pub repaired: u64,
    /// Bytes sent by kind: HELLOs and READYs (the handshake), first copies of DATA frames,
    /// DATA frames sent again, and standalone ACKs (keepalives and NAKs included).
    pub bytes: Bytes,
}

/// Bytes a session sent, by what they were for (`Stats::bytes`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bytes {
    pub handshake: u64,
    pub data: u64,
    pub resent: u64,
    pub acks: u64,
}

impl Bytes {
    pub fn total(&self) -> u64 {
        self.handshake + self.data + self.resent + self.acks
    }

    pub fn add(&mut self, other: &Bytes) {
        self.handshake += other.handshake;
        self.data += other.data;
        self.resent += other.resent;
        self.acks += other.acks;
    }
}
