//! `ccrelay admin`: the administrator's words run against the running daemon through its admin
//! socket (`admin.sock` in the data directory, see `ccrelay::transport::admin`), so a script
//! on the daemon's machine can run an event without a TCP session or a secret.
//!
//! Exit status: 0 when every command was done (2xx), 1 when the relay refused one (4xx), 2
//! when the daemon cannot be reached, closes (421), or did not record the command (5xx).

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use futures::{SinkExt, StreamExt};
use tokio::net::UnixStream;
use tokio_util::codec::{Framed, LinesCodec};

use crate::load_config;

#[derive(clap::Args)]
pub struct AdminArgs {
    /// The daemon's configuration file: its data_dir holds the admin socket.
    #[arg(long, default_value = "config/ccrelay.toml")]
    config: PathBuf,
    /// With commands on standard input: run every line even after one fails (the exit
    /// status is then the last failure's).
    #[arg(long)]
    keep_going: bool,
    /// The words of one command, as typed after logging in as admin (`GAMES`, `CREATE g1
    /// alice boris`); a word holding spaces is sent in double quotes. Without words, commands
    /// are read from standard input, one a line (empty lines and lines starting with # are
    /// skipped), and run in order until one fails.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "WORDS"
    )]
    words: Vec<String>,
}

/// How long connecting, and then the daemon's greeting, may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one command's reply may take (a journal commit is usually milliseconds).
const REPLY_TIMEOUT: Duration = Duration::from_secs(120);
/// The longest line read from the daemon.
const MAX_LINE: usize = 1 << 20;

pub fn admin_command(args: AdminArgs) -> anyhow::Result<ExitCode> {
    let config = load_config(&args.config)?;
    let path = ccrelay::transport::admin::socket_path(&config.data_dir);
    let one = if args.words.is_empty() {
        None
    } else {
        Some(command_line(&args.words)?)
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    runtime.block_on(async {
        let mut daemon = Daemon::connect(&path, &args.config).await?;
        let code = match one {
            Some(line) => {
                let reply = daemon.call(&line).await?;
                print(&reply)?;
                reply.exit_code()
            }
            None => script(&mut daemon, io::stdin().lock(), args.keep_going).await?,
        };
        Ok(ExitCode::from(code))
    })
}

/// Runs the commands read from `input` in order; the exit code of the first failure (of
/// the last with `keep_going`), 0 when none failed.
async fn script(daemon: &mut Daemon, input: impl BufRead, keep_going: bool) -> anyhow::Result<u8> {
    let mut failed = 0;
    for (n, line) in input.split(b'\n').enumerate() {
        let line = line.context("reading standard input")?;
        let line = String::from_utf8_lossy(&line);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let reply = daemon.call(line).await?;
        print(&reply)?;
        let code = reply.exit_code();
        if code == 0 {
            continue;
        }
        failed = code;
        // 421: the session is closing; nothing after it would be read.
        if !keep_going || reply.status == 421 {
            eprintln!("ccrelay admin: stopped at line {}: {line}", n + 1);
            break;
        }
        eprintln!("ccrelay admin: line {} failed: {line}", n + 1);
    }
    Ok(failed)
}

/// The command line for `words`: joined by spaces, a word holding spaces (or none at all)
/// in double quotes, as a shell took them apart.
fn command_line(words: &[String]) -> anyhow::Result<String> {
    let mut line = String::new();
    for word in words {
        if word.contains(['\n', '\r']) {
            bail!("a word holds a line break: {word:?}; a command is one line");
        }
        if !line.is_empty() {
            line.push(' ');
        }
        if word.is_empty() || word.contains(char::is_whitespace) {
            if word.contains('"') {
                bail!(
                    "{word:?} holds both spaces and a double quote; it cannot be sent as one word"
                );
            }
            line.push('"');
            line.push_str(word);
            line.push('"');
        } else {
            line.push_str(word);
        }
    }
    Ok(line)
}

/// A reply: its status code and its lines' text.
struct Reply {
    status: u16,
    lines: Vec<String>,
}

impl Reply {
    fn exit_code(&self) -> u8 {
        match self.status {
            200..=299 => 0,
            // Closing: the daemon is stopping or dropped the session; not a refusal.
            421 => 2,
            400..=499 => 1,
            _ => 2,
        }
    }
}

/// Writes the reply's text to standard output; a closed pipe (`| head`) is the reader's
/// choice, not a failure.
fn print(reply: &Reply) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    let written = reply
        .lines
        .iter()
        .try_for_each(|line| writeln!(out, "{line}"))
        .and_then(|()| out.flush());
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e).context("writing the reply"),
        _ => Ok(()),
    }
}

/// A session on the admin socket.
struct Daemon {
    framed: Framed<UnixStream, LinesCodec>,
}

impl Daemon {
    async fn connect(path: &Path, config: &Path) -> anyhow::Result<Daemon> {
        let stream = match tokio::time::timeout(CONNECT_TIMEOUT, UnixStream::connect(path)).await {
            Ok(Ok(stream)) => stream,
            Ok(Err(e)) if e.kind() == io::ErrorKind::PermissionDenied => bail!(
                "cannot reach the daemon at {}: {e}; the admin socket is for the daemon's user \
                 and root (under systemd: sudo ccrelay admin --config {} ...)",
                path.display(),
                config.display()
            ),
            Ok(Err(e)) => bail!(
                "cannot reach the daemon at {}: {e}; is it running? (`ccrelay run --config {}` \
                 listens there once started)",
                path.display(),
                config.display()
            ),
            Err(_) => bail!(
                "cannot reach the daemon at {}: no connection within {}s; it is busy or hung",
                path.display(),
                CONNECT_TIMEOUT.as_secs()
            ),
        };
        let mut daemon = Daemon {
            framed: Framed::new(stream, LinesCodec::new_with_max_length(MAX_LINE)),
        };
        let greeting = match tokio::time::timeout(CONNECT_TIMEOUT, daemon.next_line()).await {
            Ok(line) => line?,
            Err(_) => bail!(
                "the daemon at {} did not greet within {}s; it is busy or hung",
                path.display(),
                CONNECT_TIMEOUT.as_secs()
            ),
        };
        if !greeting.starts_with("200 ") {
            bail!("the daemon at {} refused: {greeting}", path.display());
        }
        Ok(daemon)
    }

    /// The next line from the daemon.
    async fn next_line(&mut self) -> anyhow::Result<String> {
        match self.framed.next().await {
            Some(Ok(line)) => Ok(line),
            Some(Err(e)) => Err(e).context("reading from the daemon"),
            None => bail!("the daemon closed the connection (stopping?)"),
        }
    }

    /// Sends one command line and reads its reply, skipping pushed messages.
    async fn call(&mut self, line: &str) -> anyhow::Result<Reply> {
        tokio::time::timeout(REPLY_TIMEOUT, self.framed.send(line))
            .await
            .context("the daemon stopped reading")?
            .context("writing to the daemon")?;
        let mut lines = Vec::new();
        loop {
            let line = tokio::time::timeout(REPLY_TIMEOUT, self.next_line())
                .await
                .with_context(|| format!("no reply within {}s", REPLY_TIMEOUT.as_secs()))??;
            if line.starts_with("* ") {
                continue;
            }
            let Some((status, last, text)) = reply_line(&line) else {
                bail!("unexpected line from the daemon: {line:?}");
            };
            lines.push(text.to_owned());
            if last {
                return Ok(Reply { status, lines });
            }
        }
    }
}

/// A reply line's code, whether it is the reply's last (`250 text`, not `250-text`), and its
/// text.
fn reply_line(line: &str) -> Option<(u16, bool, &str)> {
    let code = line.get(..3)?;
    if !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let last = match line.as_bytes().get(3) {
        None | Some(b' ') => true,
        Some(b'-') => false,
        Some(_) => return None,
    };
    Some((code.parse().ok()?, last, line.get(4..).unwrap_or("")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn words_with_spaces_are_quoted() {
        assert_eq!(
            command_line(&words(&["EVENT", "NEW", "e1", "NAME", "Club 2026"])).unwrap(),
            "EVENT NEW e1 NAME \"Club 2026\""
        );
        assert_eq!(command_line(&words(&["GAMES"])).unwrap(), "GAMES");
        assert_eq!(
            command_line(&words(&["MSG", "g1", ""])).unwrap(),
            "MSG g1 \"\""
        );
        assert!(command_line(&words(&["NAME", "a \"b\""])).is_err());
        assert!(command_line(&words(&["GAMES\nQUIT"])).is_err());
    }

    #[test]
    fn reply_lines() {
        assert_eq!(reply_line("250-first"), Some((250, false, "first")));
        assert_eq!(
            reply_line("404 no game \"x\""),
            Some((404, true, "no game \"x\""))
        );
        assert_eq!(reply_line("250 "), Some((250, true, "")));
        assert_eq!(reply_line("250"), Some((250, true, "")));
        assert_eq!(reply_line("25x text"), None);
        assert_eq!(reply_line("250+text"), None);
        assert_eq!(reply_line("é"), None);
    }
}
