//! A pseudo-terminal as a serial line's far end: what a terminal program (picocom, a
//! teleprinter) would see and send, for a daemon serving the other end as `[[terminals]]`.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The far end of a pseudo-terminal: what a terminal program would see and send.
pub struct Terminal {
    master: std::fs::File,
    seen: Arc<Mutex<Vec<u8>>>,
    /// How much of `seen` the test has looked at.
    read_upto: usize,
    _slave: std::os::fd::OwnedFd,
    /// The device the daemon opens (`[[terminals]] device`).
    pub path: String,
}

impl Terminal {
    pub fn open() -> Terminal {
        let pty = nix::pty::openpty(None, None).expect("openpty");
        // Raw from the start, as the daemon will set it: nothing echoed by the kernel.
        let mut termios = nix::sys::termios::tcgetattr(&pty.slave).expect("tcgetattr");
        nix::sys::termios::cfmakeraw(&mut termios);
        nix::sys::termios::tcsetattr(&pty.slave, nix::sys::termios::SetArg::TCSANOW, &termios)
            .expect("tcsetattr");
        let path = nix::unistd::ttyname(&pty.slave)
            .expect("ttyname")
            .display()
            .to_string();
        let master = std::fs::File::from(pty.master);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mut reader = master.try_clone().expect("clone");
        let sink = seen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 1024];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Terminal {
            master,
            seen,
            read_upto: 0,
            _slave: pty.slave,
            path,
        }
    }

    pub fn type_bytes(&mut self, bytes: &[u8]) {
        self.master.write_all(bytes).expect("type");
    }

    /// Waits until the terminal has printed `wanted` (after what was already looked at), for
    /// at most 20 s; returns everything printed up to and including it.
    pub fn expect(&mut self, wanted: &str) -> String {
        self.expect_within(wanted, Duration::from_secs(20))
    }

    /// [`Terminal::expect`], waiting at most `within`.
    pub fn expect_within(&mut self, wanted: &str, within: Duration) -> String {
        let deadline = Instant::now() + within;
        loop {
            {
                let seen = self.seen.lock().unwrap();
                let text = String::from_utf8_lossy(&seen[self.read_upto..]).into_owned();
                if let Some(at) = text.find(wanted) {
                    let upto = at + wanted.len();
                    self.read_upto += text[..upto].len();
                    return text[..upto].to_owned();
                }
                assert!(
                    Instant::now() < deadline,
                    "the terminal never printed {wanted:?}; it printed {text:?}"
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Wakes the quiet line (Enter after a pause, as a person would) and logs in as `id` with
    /// `secret`, waiting for the prompt and then the welcome.
    pub fn log_in(&mut self, id: &str, secret: &str) {
        std::thread::sleep(Duration::from_millis(300));
        self.type_bytes(b"\r");
        self.expect("\r\n> ");
        self.type_bytes(format!("LOGIN {id} {secret}\r").as_bytes());
        self.expect(&format!("230 welcome {id}"));
    }

    /// What the terminal printed that the test has not looked at yet.
    pub fn unread(&self) -> Vec<u8> {
        self.seen.lock().unwrap()[self.read_upto..].to_vec()
    }
}
