//! A radio channel the tests own, and Debian's Direwolf on it: two software TNCs with no sound
//! card, joined by a process (threads here) that plays each station the other's transmission
//! in real time, with noise.
//!
//! Direwolf reads its audio from a UDP port (signed 16-bit little-endian mono at 44.1 kHz) and
//! writes it to an ALSA device; an ALSA `file` plugin in front of the `null` device, in a
//! `.asoundrc` under the instance's own `HOME`, pipes what it writes to `socat`, which sends it
//! to the channel (docs/radio.md, "Testing without a radio"). Every 20 ms the channel sends
//! each station 20 ms of audio: the other's queued transmission, or silence, times a gain of
//! 0.25, plus Gaussian noise. Direwolf's receiver needs that continuous stream (with audio that
//! stops at a frame's end its carrier detect stays busy and it never answers). A station that
//! is transmitting hears nothing of the other (half duplex: two stations that key up together
//! lose both frames, as on air).

use std::collections::VecDeque;
use std::net::UdpSocket;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::port;

const RATE: usize = 44_100;
/// 20 ms of audio.
const TICK_SAMPLES: usize = RATE / 50;
const GAIN: f32 = 0.25;

/// Fails the test with one line when Direwolf is missing.
pub fn require_direwolf() {
    let found = Command::new("direwolf").arg("-h").output().is_ok();
    assert!(
        found && Command::new("socat").arg("-V").output().is_ok(),
        "direwolf and socat not installed: run `tests/run --setup` (apt-get install direwolf socat)"
    );
}

/// The channel between station 0 and station 1: where each station's transmitter sends its
/// audio (`to_channel`), and where each station's receiver listens (`to_station`).
pub struct Channel {
    pub to_channel: [u16; 2],
    pub to_station: [u16; 2],
    /// Samples each station has put on air: its time transmitting (preambles included).
    pub on_air: Arc<[AtomicU64; 2]>,
    stop: Arc<AtomicBool>,
}

impl Channel {
    /// A channel whose noise has standard deviation `noise`, in sample units (a transmission
    /// reaches the receiver at about 2800 RMS).
    pub fn start(noise: u32) -> Channel {
        let queues: [Arc<Mutex<VecDeque<i16>>>; 2] = Default::default();
        let stop = Arc::new(AtomicBool::new(false));
        let mut to_channel = [0; 2];
        for (i, queue) in queues.iter().enumerate() {
            let socket = UdpSocket::bind("127.0.0.1:0").expect("bind");
            socket
                .set_read_timeout(Some(Duration::from_millis(200)))
                .expect("timeout");
            to_channel[i] = socket.local_addr().expect("addr").port();
            let (queue, stop) = (queue.clone(), stop.clone());
            std::thread::spawn(move || listen(&socket, &queue, &stop));
        }
        let to_station = [port::free(), port::free()];
        let on_air: Arc<[AtomicU64; 2]> = Arc::default();
        let (s, a) = (stop.clone(), on_air.clone());
        std::thread::spawn(move || play(&queues, to_station, noise as f32, &s, &a));
        Channel {
            to_channel,
            to_station,
            on_air,
            stop,
        }
    }

    /// Seconds each station has transmitted so far.
    pub fn air_seconds(&self) -> [f64; 2] {
        [0, 1].map(|i| self.on_air[i].load(Ordering::Relaxed) as f64 / RATE as f64)
    }
}

impl Drop for Channel {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Queues what a station transmits.
fn listen(socket: &UdpSocket, queue: &Mutex<VecDeque<i16>>, stop: &AtomicBool) {
    let mut buf = vec![0u8; 65_536];
    let mut odd: Option<u8> = None;
    while !stop.load(Ordering::Relaxed) {
        let Ok(n) = socket.recv(&mut buf) else {
            continue;
        };
        let mut bytes: Vec<u8> = odd.take().into_iter().collect();
        bytes.extend_from_slice(&buf[..n]);
        if bytes.len() % 2 == 1 {
            odd = bytes.pop();
        }
        let mut q = queue.lock().expect("queue");
        q.extend(bytes.chunks(2).map(|b| i16::from_le_bytes([b[0], b[1]])));
    }
}

/// Every 20 ms, 20 ms of audio to each station.
fn play(
    queues: &[Arc<Mutex<VecDeque<i16>>>; 2],
    to: [u16; 2],
    sigma: f32,
    stop: &AtomicBool,
    on_air: &[AtomicU64; 2],
) {
    let socket = UdpSocket::bind("127.0.0.1:0").expect("bind");
    let mut rng = Gauss(0x1886_2026 | 1);
    let start = Instant::now();
    let mut tick: u32 = 0;
    while !stop.load(Ordering::Relaxed) {
        let transmitting: Vec<bool> = queues
            .iter()
            .map(|q| !q.lock().expect("q").is_empty())
            .collect();
        let mut out = [Vec::new(), Vec::new()];
        for (station, samples) in out.iter_mut().enumerate() {
            let other = 1 - station;
            let mut q = queues[other].lock().expect("queue");
            let sent = q.len().min(TICK_SAMPLES);
            on_air[other].fetch_add(sent as u64, Ordering::Relaxed);
            for _ in 0..TICK_SAMPLES {
                let signal = q.pop_front().map_or(0.0, f32::from);
                let heard = if transmitting[station] {
                    0.0
                } else {
                    signal * GAIN
                };
                let s = (heard + sigma * rng.next()).clamp(-32768.0, 32767.0) as i16;
                samples.extend_from_slice(&s.to_le_bytes());
            }
        }
        for (station, samples) in out.iter().enumerate() {
            let _ = socket.send_to(samples, ("127.0.0.1", to[station]));
        }
        tick += 1;
        let due = start + Duration::from_millis(20) * tick;
        if let Some(wait) = due.checked_duration_since(Instant::now()) {
            std::thread::sleep(wait);
        }
    }
}

/// Standard normal numbers: xorshift and Box–Muller.
struct Gauss(u64);

impl Gauss {
    fn uniform(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        ((self.0 >> 40) as f32 + 0.5) / (1u64 << 24) as f32
    }

    fn next(&mut self) -> f32 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos()
    }
}

/// One Direwolf, a software TNC on the channel, with its KISS port on loopback and, if asked
/// for, a pseudo-terminal that speaks KISS as a hardware TNC's serial line does.
pub struct Direwolf {
    pub dir: PathBuf,
    pub kiss: u16,
    /// Whether Direwolf offers KISS on a pseudo-terminal too (`-p`).
    with_pty: bool,
    child: Option<Child>,
}

impl Direwolf {
    /// Station `station` (0 or 1) of `channel`, with callsign `call`, in folder `dir`.
    pub fn start(dir: &Path, channel: &Channel, station: usize, call: &str) -> Direwolf {
        Direwolf::start_with(dir, channel, station, call, false)
    }

    /// As [`Direwolf::start`], with KISS on a pseudo-terminal too ([`Direwolf::pty`]).
    pub fn start_with_pty(dir: &Path, channel: &Channel, station: usize, call: &str) -> Direwolf {
        Direwolf::start_with(dir, channel, station, call, true)
    }

    fn start_with(
        dir: &Path,
        channel: &Channel,
        station: usize,
        call: &str,
        with_pty: bool,
    ) -> Direwolf {
        std::fs::create_dir_all(dir).expect("dir");
        let asoundrc = format!(
            "pcm.radio_out {{ type plug; slave.pcm {{ type file; slave.pcm \"null\"; \
             file \"|socat -u -b 1024 - UDP-SENDTO:127.0.0.1:{}\"; format \"raw\" }} }}\n",
            channel.to_channel[station]
        );
        std::fs::write(dir.join(".asoundrc"), asoundrc).expect("asoundrc");
        let kiss = port::free();
        let conf = format!(
            "ADEVICE UDP:{} radio_out\nARATE {RATE}\nACHANNELS 1\nCHANNEL 0\nMYCALL {call}\n\
             MODEM 1200\nKISSPORT {kiss}\nAGWPORT {}\n",
            channel.to_station[station],
            port::free()
        );
        std::fs::write(dir.join("direwolf.conf"), conf).expect("conf");
        let mut tnc = Direwolf {
            dir: dir.to_owned(),
            kiss,
            with_pty,
            child: None,
        };
        tnc.run();
        tnc
    }

    fn run(&mut self) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join("direwolf.log"))
            .expect("log");
        // Line-buffered, so that its log holds every frame when the test reads it.
        let mut args = vec!["-oL", "direwolf", "-c", "direwolf.conf", "-t", "0"];
        if self.with_pty {
            args.push("-p");
        }
        let child = Command::new("stdbuf")
            .env("HOME", &self.dir)
            .current_dir(&self.dir)
            .args(args)
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log"))
            .stderr(log)
            .spawn()
            .expect("start direwolf");
        self.child = Some(child);
        // Direwolf carries on without a port it could not bind: say so at once, not after the
        // wait.
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", self.kiss)).is_err() {
            let log = self.log();
            assert!(
                Instant::now() < deadline && !log.contains("Bind failed"),
                "direwolf's KISS port {} never opened: {log}",
                self.kiss
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The pseudo-terminal on which this Direwolf speaks KISS (started with
    /// [`Direwolf::start_with_pty`]), from its log. Direwolf also points `/tmp/kisstnc` at it,
    /// a fixed name that every Direwolf started with `-p` on the machine overwrites; the name
    /// in its own log is this one's, whatever runs beside it.
    pub fn pty(&self) -> PathBuf {
        const SAID: &str = "Virtual KISS TNC is available on ";
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let log = self.log();
            if let Some(line) = log.lines().find_map(|l| l.strip_prefix(SAID)) {
                return PathBuf::from(line.trim());
            }
            assert!(
                Instant::now() < deadline,
                "direwolf -p named no pseudo-terminal: {log}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Kills the TNC and starts it again on the same ports (a TNC restarted under the relay).
    pub fn restart(&mut self) {
        self.stop();
        std::thread::sleep(Duration::from_millis(500));
        self.run();
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Frames this TNC has sent and decoded so far, from its log (`[0L]` a frame sent on
    /// channel 0, `[0.n]` one decoded).
    pub fn frames(&self) -> (usize, usize) {
        let log = self.log();
        let sent = log.lines().filter(|l| l.starts_with("[0L]")).count();
        let heard = log.lines().filter(|l| l.starts_with("[0.")).count();
        (sent, heard)
    }

    pub fn log(&self) -> String {
        // Frames are printed as their bytes: not always UTF-8.
        let bytes = std::fs::read(self.dir.join("direwolf.log")).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

impl Drop for Direwolf {
    fn drop(&mut self) {
        self.stop();
    }
}
