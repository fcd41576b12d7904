//! A person at a terminal on a serial line: a teleprinter, or a terminal program such as
//! picocom or minicom, at 300 to 115200 baud. The line protocol ([`super::session`]) runs
//! unchanged behind a line discipline, as a Unix tty would give it: what the person types is
//! echoed, backspace, Ctrl-U (erase the line), Ctrl-W (erase a word) and Ctrl-C (drop the line)
//! edit it, the secret of a `LOGIN` is echoed as `*`, lines end in CR, LF or CR LF, and output
//! gets CR LF line ends, a short `> ` prompt, and is written above a half-typed line, which is
//! then typed out again, so the opponent's moves appear as they arrive.
//!
//! ```
//! # async fn demo() -> std::io::Result<()> {
//! use ccrelay::transport::terminal::{Discipline, Options};
//! let (port, mut person) = tokio::io::duplex(1024);
//! let (session, mut relay_side) = tokio::io::duplex(1024);
//! let stop = tokio_util::sync::CancellationToken::new();
//! tokio::spawn(async move { Discipline::new(Options::default()).run(port, session, stop, b"").await });
//! use tokio::io::{AsyncReadExt, AsyncWriteExt};
//! person.write_all(b"SHOW g1\x08\x082\r").await?;
//! let mut line = [0u8; 8];
//! relay_side.read_exact(&mut line).await?;
//! assert_eq!(&line, b"SHOW g2\n");
//! # Ok(()) }
//! ```

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio_util::sync::CancellationToken;

use super::context::{Context, Peer};
use super::serial_port::open_with_backoff;
use super::session::LineSession;
use crate::backoff::Backoff;
use crate::config::SerialConfig;
use crate::relay::Channel;

/// Output queued between a session and a slow line, in bytes: at 300 baud this is half an
/// hour of printing, so a session is never held up by the line in practice, and a terminal
/// that stops reading (flow control held forever) ends its session after the write deadline.
const SESSION_BUFFER: usize = 64 * 1024;

/// Serves the terminal on one serial line until shutdown: opens the port (again, with
/// backoff, when it goes away: a USB adapter pulled), waits for the person to type something,
/// then runs one line-protocol session after another on it. Nothing is lost while the port is
/// gone: messages wait in the durable outbox until the player is back and acknowledges them.
pub async fn serve_line(config: SerialConfig, ctx: Arc<Context>) {
    let mut backoff = Backoff::new(Duration::from_millis(250), Duration::from_secs(30));
    let options = Options {
        max_line_bytes: ctx.config.limits.max_line_bytes,
        baud: config.baud,
    };
    let key = format!("serial:{}", config.device);
    // A port that opens but fails at once (a device half there) must not be reopened in a
    // tight loop: failures within a few seconds of opening wait, longer each time.
    let mut failing = Backoff::new(Duration::from_millis(500), Duration::from_secs(30));
    let mut first = true;
    'port: loop {
        if !first && failing.wait(&ctx.shutdown).await.is_err() {
            return;
        }
        first = false;
        let Some(mut port) = open_with_backoff(&config, &mut backoff, &ctx.shutdown).await else {
            return;
        };
        let opened = tokio::time::Instant::now();
        loop {
            if opened.elapsed() > Duration::from_secs(10) {
                failing.reset();
            }
            // An unattended line stays quiet: a session (and its login deadline) starts
            // when someone types.
            let mut wake = [0u8; 256];
            let n = tokio::select! {
                () = ctx.shutdown.cancelled() => return,
                read = port.read(&mut wake) => match read {
                    Ok(0) | Err(_) => continue 'port,
                    Ok(n) => n,
                },
            };
            let (ours, theirs) = tokio::io::duplex(SESSION_BUFFER);
            let printed = Arc::new(AtomicI64::new(0));
            let peer = Peer {
                key: key.clone(),
                channel: Channel::Serial,
                printed: Some(printed.clone()),
                private_wire: false,
            };
            let session = {
                let ctx = ctx.clone();
                ctx.tracker.clone().spawn(async move {
                    if let Err(e) = LineSession::new(theirs, peer, &ctx).run().await {
                        tracing::debug!(error = %e, "serial session ended with an error");
                    }
                })
            };
            let ran = Discipline::new(options)
                .reporting_printed(printed)
                .run(&mut port, ours, ctx.shutdown.clone(), &wake[..n])
                .await;
            // Its side of the pipe is closed: the session ends (and unsubscribes) at once.
            let _ = tokio::time::timeout(Duration::from_secs(10), session).await;
            if ctx.shutdown.is_cancelled() {
                return;
            }
            if let Err(e) = ran {
                tracing::warn!(port = %config, error = %e, "serial line lost; reopening");
                continue 'port;
            }
            // What follows the last line (the LF of a CR LF, keys typed after QUIT) must not
            // start the next session: the line is quiet until someone types again.
            let settle = tokio::time::sleep(Duration::from_millis(300));
            tokio::pin!(settle);
            loop {
                tokio::select! {
                    () = &mut settle => break,
                    read = port.read(&mut wake) => match read {
                        Ok(0) | Err(_) => continue 'port,
                        Ok(_) => {}
                    },
                }
            }
        }
    }
}

/// How the discipline treats a line.
#[derive(Copy, Clone, Debug)]
pub struct Options {
    /// The longest line a person may type; more rings the bell and is not taken.
    pub max_line_bytes: usize,
    /// The line's speed: writes are given the time they need at it.
    pub baud: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_line_bytes: 1024,
            baud: 9600,
        }
    }
}

const PROMPT: &[u8] = b"> ";
const ERASE: &[u8] = b"\x08 \x08";
const BELL: u8 = 0x07;

/// Where an escape sequence (an arrow key: `ESC [ A`) is being skipped.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Escape {
    None,
    /// After ESC.
    Start,
    /// After `ESC [` or `ESC O`: until a final byte.
    Sequence,
}

/// The state of the line being typed and of the screen.
pub struct Discipline {
    options: Options,
    line: Vec<u8>,
    escape: Escape,
    /// The last byte ended a line with CR: a following LF belongs to it.
    after_cr: bool,
    /// The cursor is after the prompt (and the half-typed line), not at a line start.
    prompted: bool,
    /// The session's output ended in the middle of a line.
    output_mid_line: bool,
    /// The start of the output line being printed, to read a push's id from.
    output_line: Vec<u8>,
    /// The highest push id printed to the terminal, for the session's `ACK`.
    printed: Option<Arc<AtomicI64>>,
}

impl Discipline {
    pub fn new(options: Options) -> Discipline {
        Discipline {
            options,
            line: Vec::new(),
            escape: Escape::None,
            after_cr: false,
            prompted: false,
            output_mid_line: false,
            output_line: Vec::new(),
            printed: None,
        }
    }

    /// Reports the id of each push once it is written to the terminal.
    pub fn reporting_printed(mut self, printed: Arc<AtomicI64>) -> Discipline {
        self.printed = Some(printed);
        self
    }

    /// Notes pushes (`* <id> ...` lines) in output the terminal has taken.
    fn note_printed(&mut self, output: &[u8]) {
        let Some(printed) = &self.printed else {
            return;
        };
        for &b in output {
            if b == b'\n' {
                let line = std::mem::take(&mut self.output_line);
                let id = line
                    .strip_prefix(b"* ")
                    .map(|rest| {
                        rest.iter()
                            .take_while(|c| c.is_ascii_digit())
                            .copied()
                            .collect::<Vec<u8>>()
                    })
                    .and_then(|digits| std::str::from_utf8(&digits).ok()?.parse::<i64>().ok());
                if let Some(id) = id {
                    printed.fetch_max(id, Ordering::AcqRel);
                }
            } else if self.output_line.len() < 32 {
                self.output_line.push(b);
            }
        }
    }

    /// Takes bytes typed at the terminal; returns what to echo and the lines completed.
    pub fn typed(&mut self, bytes: &[u8]) -> (Vec<u8>, Vec<Vec<u8>>) {
        let mut echo = Vec::new();
        let mut lines = Vec::new();
        for &b in bytes {
            match self.escape {
                Escape::Start => {
                    if b == b'[' || b == b'O' {
                        self.escape = Escape::Sequence;
                        continue;
                    }
                    // A lone ESC: the byte after it is typed as usual.
                    self.escape = Escape::None;
                }
                Escape::Sequence => {
                    if (0x40..=0x7e).contains(&b) {
                        self.escape = Escape::None;
                        continue;
                    }
                    if b >= 0x20 {
                        continue;
                    }
                    // A control byte (Enter) ends an unfinished sequence and counts.
                    self.escape = Escape::None;
                }
                Escape::None => {}
            }
            let after_cr = std::mem::replace(&mut self.after_cr, false);
            match b {
                b'\n' if after_cr => {}
                b'\r' | b'\n' => {
                    self.after_cr = b == b'\r';
                    echo.extend_from_slice(b"\r\n");
                    self.prompted = false;
                    let mut line = std::mem::take(&mut self.line);
                    line.push(b'\n');
                    lines.push(line);
                }
                0x08 | 0x7f => {
                    if self.pop_char() {
                        echo.extend_from_slice(ERASE);
                    }
                }
                0x15 => {
                    while self.pop_char() {
                        echo.extend_from_slice(ERASE);
                    }
                }
                0x17 => {
                    while self.line.last() == Some(&b' ') && self.pop_char() {
                        echo.extend_from_slice(ERASE);
                    }
                    while self.line.last().is_some_and(|c| *c != b' ') && self.pop_char() {
                        echo.extend_from_slice(ERASE);
                    }
                }
                0x03 => {
                    self.line.clear();
                    echo.extend_from_slice(b"^C\r\n");
                    echo.extend_from_slice(PROMPT);
                    self.prompted = true;
                }
                0x1b => self.escape = Escape::Start,
                _ if b < 0x20 => {}
                _ => {
                    if self.line.len() >= self.options.max_line_bytes {
                        echo.push(BELL);
                        continue;
                    }
                    let masked = self.in_secret(b);
                    self.line.push(b);
                    if !masked {
                        echo.push(b);
                    } else if b & 0xc0 != 0x80 {
                        // One star per character, not per UTF-8 byte.
                        echo.push(b'*');
                    }
                    self.prompted = true;
                }
            }
        }
        (echo, lines)
    }

    /// Removes the last character (all its UTF-8 bytes); false if the line is empty.
    fn pop_char(&mut self) -> bool {
        while let Some(b) = self.line.pop() {
            if b & 0xc0 != 0x80 {
                return true;
            }
        }
        false
    }

    /// Whether byte `b`, typed next, is part of a `LOGIN` line's secret (its third word),
    /// with words split as the line protocol splits them (any Unicode whitespace).
    fn in_secret(&self, b: u8) -> bool {
        if b.is_ascii_whitespace() {
            return false;
        }
        let text = String::from_utf8_lossy(&self.line);
        let is_login = text
            .split_whitespace()
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("login"));
        let words = text.split_whitespace().count();
        let index = if text.chars().last().is_none_or(char::is_whitespace) {
            words
        } else {
            words.saturating_sub(1)
        };
        is_login && index >= 2
    }

    /// Takes the session's output; returns the bytes for the terminal: CR LF line ends, the
    /// output on its own lines above anything half-typed, then the prompt and the half-typed
    /// line again.
    pub fn output(&mut self, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(bytes.len() + 16);
        if bytes.is_empty() {
            return out;
        }
        if self.prompted && !self.output_mid_line {
            if self.line.is_empty() {
                // Overwrite the bare prompt.
                out.push(b'\r');
            } else {
                out.extend_from_slice(b"\r\n");
            }
            self.prompted = false;
        }
        for &b in bytes {
            if b == b'\n' {
                out.extend_from_slice(b"\r\n");
            } else {
                out.push(b);
            }
        }
        self.output_mid_line = bytes.last() != Some(&b'\n');
        if !self.output_mid_line {
            out.extend_from_slice(PROMPT);
            let shown = self.echo_of_line();
            out.extend_from_slice(&shown);
            self.prompted = true;
        }
        out
    }

    /// The half-typed line as it was echoed (the secret starred).
    fn echo_of_line(&self) -> Vec<u8> {
        let mut replay = Discipline::new(self.options);
        let (echo, _) = replay.typed(&self.line);
        echo
    }

    /// Runs between `port` (the terminal's bytes) and `session` (the line protocol's side)
    /// until the session ends (its side closes: `QUIT`, a timeout, shutdown), the port fails,
    /// or `stop` is cancelled. The port is borrowed: the next session runs on it.
    /// `initial` is what was typed before the session started.
    pub async fn run<P, S>(
        mut self,
        mut port: P,
        mut session: S,
        stop: CancellationToken,
        initial: &[u8],
    ) -> io::Result<()>
    where
        P: AsyncRead + AsyncWrite + Unpin,
        S: AsyncRead + AsyncWrite + Unpin,
    {
        let mut from_port = [0u8; 256];
        let mut from_session = [0u8; 1024];
        let (echo, lines) = self.typed(initial);
        self.write_port(&mut port, &echo).await?;
        for line in lines {
            session.write_all(&line).await?;
        }
        loop {
            tokio::select! {
                () = stop.cancelled() => return Ok(()),
                read = port.read(&mut from_port) => {
                    let n = read?;
                    if n == 0 {
                        return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "the line closed"));
                    }
                    let (echo, lines) = self.typed(&from_port[..n]);
                    self.write_port(&mut port, &echo).await?;
                    for line in lines {
                        // The session reads as fast as it answers; a bounded wait all the same.
                        tokio::time::timeout(Duration::from_secs(30), session.write_all(&line))
                            .await
                            .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "the session stopped reading"))??;
                    }
                }
                read = session.read(&mut from_session) => {
                    let n = read?;
                    if n == 0 {
                        return Ok(());
                    }
                    let out = self.output(&from_session[..n]);
                    self.write_port(&mut port, &out).await?;
                    self.note_printed(&from_session[..n]);
                }
            }
        }
    }

    /// Writes to the terminal with a deadline the line's speed allows (a 300-baud line takes
    /// a third of a second for ten characters).
    async fn write_port<P: AsyncWrite + Unpin>(
        &self,
        port: &mut P,
        bytes: &[u8],
    ) -> io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        let seconds = bytes.len() as u64 * 10 / u64::from(self.options.baud.max(1));
        let deadline = Duration::from_secs(10 + 2 * seconds);
        tokio::time::timeout(deadline, async {
            port.write_all(bytes).await?;
            port.flush().await
        })
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "the terminal stopped reading"))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(d: &mut Discipline, bytes: &[u8]) -> (String, Vec<String>) {
        let (echo, lines) = d.typed(bytes);
        (
            String::from_utf8_lossy(&echo).into_owned(),
            lines
                .into_iter()
                .map(|l| String::from_utf8_lossy(&l).into_owned())
                .collect(),
        )
    }

    #[test]
    fn typing_is_echoed_and_edited() {
        let mut d = Discipline::new(Options::default());
        for (input, echo, lines) in [
            (
                &b"MOVE g1 5254\r"[..],
                "MOVE g1 5254\r\n",
                vec!["MOVE g1 5254\n"],
            ),
            (b"\n", "", vec![]),
            (b"e5\x08\x084\n", "e5\x08 \x08\x08 \x084\r\n", vec!["4\n"]),
            (
                b"abc\x15x\r\n",
                "abc\x08 \x08\x08 \x08\x08 \x08x\r\n",
                vec!["x\n"],
            ),
            (b"a b\x17c\r", "a b\x08 \x08c\r\n", vec!["a c\n"]),
            (b"oops\x03", "oops^C\r\n> ", vec![]),
            (b"\x1b[A\x1bOBok\r", "ok\r\n", vec!["ok\n"]),
            (b"x\x1b\r", "x\r\n", vec!["x\n"]),
            (b"y\x1b[1;\r", "y\r\n", vec!["y\n"]),
            (b"\x08", "", vec![]),
        ] {
            let (e, l) = typed(&mut d, input);
            assert_eq!(e, echo, "{input:?}");
            assert_eq!(l, lines, "{input:?}");
        }
    }

    #[test]
    fn backspace_removes_a_whole_utf8_character() {
        let mut d = Discipline::new(Options::default());
        let (_, lines) = typed(&mut d, "Кg1\x08\x08\x08Nf3\r".as_bytes());
        assert_eq!(lines, ["Nf3\n"]);
    }

    #[test]
    fn a_login_secret_is_echoed_as_stars() {
        let mut d = Discipline::new(Options::default());
        let (echo, lines) = typed(&mut d, "login alice sécret\r".as_bytes());
        assert_eq!(echo, "login alice ******\r\n");
        assert_eq!(lines, ["login alice sécret\n"]);
        let (echo, _) = typed(&mut d, b"LOGINX a b\r");
        assert_eq!(echo, "LOGINX a b\r\n");
        // A full-width space separates words for the protocol: the secret after it is starred.
        let (echo, _) = typed(&mut d, "login\u{3000}alice\u{3000}pw\r".as_bytes());
        assert_eq!(echo, "login\u{3000}alice\u{3000}**\r\n");
    }

    #[test]
    fn an_overlong_line_rings_the_bell() {
        let mut d = Discipline::new(Options {
            max_line_bytes: 4,
            baud: 300,
        });
        let (echo, lines) = typed(&mut d, b"abcdef\r");
        assert_eq!(echo, "abcd\x07\x07\r\n");
        assert_eq!(lines, ["abcd\n"]);
    }

    #[test]
    fn output_goes_above_a_half_typed_line_which_is_typed_again() {
        let mut d = Discipline::new(Options::default());
        let greeting = d.output(b"200 ready\n");
        assert_eq!(greeting, b"200 ready\r\n> ");
        typed(&mut d, b"MOVE g1 e");
        let push = d.output(b"* 5 MOVE g1 1... e5 by boris\n");
        assert_eq!(
            String::from_utf8_lossy(&push),
            "\r\n* 5 MOVE g1 1... e5 by boris\r\n> MOVE g1 e"
        );
        let (_, lines) = typed(&mut d, b"4\r");
        assert_eq!(lines, ["MOVE g1 e4\n"]);
        // A reply after Enter starts at the line start; a push after a bare prompt overwrites it.
        assert_eq!(d.output(b"250 ok\n"), b"250 ok\r\n> ");
        assert_eq!(d.output(b"* 6 x\n"), b"\r* 6 x\r\n> ");
        // Output cut in the middle of a line is continued, without a prompt in between.
        assert_eq!(d.output(b"250-a"), b"\r250-a");
        assert_eq!(d.output(b"\n250 b\n"), b"\r\n250 b\r\n> ");
    }
}
