//! The command line only: parse arguments, load config, set up logging, call into the library,
//! map failures to exit codes.

#![forbid(unsafe_code)]

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use ccrelay::config::Config;
use ccrelay::game::Kind;
use ccrelay::notation::Lang;
use clap::{Parser, Subcommand};
use tokio_util::sync::CancellationToken;

mod admin;
mod bench;
mod convert;
mod journal;
mod log_line;
mod progress;
mod radio;

use journal::{JournalCommand, journal_command};

/// mimalloc, not the C library's allocator: the relay's threads free what others allocated
/// (a move's record is made by the relay and dropped by the journal's writer, a push made by
/// the writer and dropped by a session), and glibc's arenas then wait on each other's locks.
/// About a quarter of the daemon's CPU a move (docs/performance.md, "A relayed move").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "ccrelay", version, about = "A correspondence chess relay")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the relay daemon.
    Run {
        /// The configuration file.
        #[arg(long, default_value = "config/ccrelay.toml")]
        config: PathBuf,
    },
    /// Check a configuration file and say what is wrong with it, without starting.
    CheckConfig {
        /// The configuration file.
        file: PathBuf,
    },
    /// Hash a secret for the configuration (reads it from standard input, one line).
    HashSecret,
    /// Load benchmark: a relay in-process, many concurrent games over loopback, fsync on.
    Bench {
        /// Concurrent games.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Games each player plays at once, all against one opponent over one connection
        /// each (1: two connections a game).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        games_per_player: u32,
        /// Half-moves played in every game.
        #[arg(long, default_value_t = 40)]
        plies: usize,
        /// Moves per second offered across all games; 0 for as fast as the relay answers.
        #[arg(long, default_value_t = 5000.0)]
        rate: f64,
        /// Journal folder (default: a fresh folder under the temporary folder, removed after).
        #[arg(long)]
        data_dir: Option<PathBuf>,
        /// Instead of a load, write a large journal to restart on: `DIR/ccrelay.toml` and the
        /// journal in `DIR/data`, `--games` games of `--plies` random legal moves each.
        #[arg(long, value_name = "DIR", conflicts_with_all = ["rate", "data_dir"])]
        fill: Option<PathBuf>,
        /// Play against a daemon running as its own process (started on the configuration
        /// `--fill DIR --plies 0` wrote, with as many games), so its CPU is measured apart.
        #[arg(long, value_name = "ADDR", conflicts_with_all = ["data_dir", "fill"])]
        connect: Option<std::net::SocketAddr>,
    },
    /// Run the administrator's words against the running daemon, on its machine.
    ///
    /// Through the admin socket in the daemon's data directory (mode 0600: the daemon's user
    /// and root only), no secret needed. Prints each reply without its status code. Exits 0
    /// when done, 1 when refused, 2 when the daemon cannot be reached, is stopping, or did not
    /// record the command. Under the systemd unit (a dynamic user) run it as root: `sudo
    /// ccrelay admin --config /etc/ccrelay/ccrelay.toml GAMES`.
    Admin(admin::AdminArgs),
    /// The official record.
    Journal {
        #[command(subcommand)]
        command: JournalCommand,
    },
    /// Packet radio: a radio player's card of one-time codes.
    Radio {
        #[command(subcommand)]
        command: radio::RadioCommand,
    },
    /// Convert games between notations: ICCF numeric, SAN and long algebraic in any language,
    /// UCI, PGN, JSON. Reads PGN or plain movetext. With `--game draughts-ru`, Russian
    /// draughts: algebraic (c3-d4, g1:e3:c5:a7), numeric (22-18, 22x15x24), PDN, JSON.
    Convert {
        /// The game: chess, or draughts-ru (Russian draughts).
        #[arg(long, default_value = "chess", value_parser = game_kind())]
        game: Kind,
        /// Output format. Chess: iccf (default), san, lan, uci, pgn, json. Draughts: alg
        /// (default), num, pdn, json.
        #[arg(long)]
        to: Option<String>,
        /// The players' language (en, ru, uk, de, fr, ...; figurine): moves are read in it and
        /// SAN/LAN written in it. Without it, any language is read, English first. Chess only.
        #[arg(long)]
        lang: Option<Lang>,
        /// Start position of games that have no FEN tag: a chess FEN; for draughts PDN's FEN
        /// (W:W21,...:B1,...) or a listing ("White: king e1, f2. Black: b6, c3").
        #[arg(long)]
        fen: Option<String>,
        /// Input file; `-` or nothing for standard input.
        file: Option<PathBuf>,
    },
    /// Write a working configuration for a new club into DIR: an administrator and two
    /// players with fresh secrets (printed once; only their hashes are stored), a game between
    /// them, and the journal's folder. Then: `ccrelay run --config DIR/ccrelay.toml`.
    Init {
        /// The folder (made if missing); an existing ccrelay.toml in it is never overwritten.
        dir: PathBuf,
        /// The address the daemon will listen on.
        #[arg(long, default_value = "127.0.0.1:7878")]
        listen: String,
    },
    /// Write the manual pages or the shell completions (for packaging).
    #[command(hide = true)]
    Generate {
        what: Generated,
        /// The folder to write into (made if missing).
        dir: PathBuf,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Generated {
    /// One roff page per command: ccrelay.1, ccrelay-run.1, ...
    Man,
    /// bash (ccrelay.bash), zsh (_ccrelay) and fish (ccrelay.fish).
    Completions,
}

/// `--game`: the relay's game kinds, named as the configuration names them (listed in the
/// help and the completions).
fn game_kind() -> impl clap::builder::TypedValueParser<Value = Kind> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new([Kind::Chess.as_str(), Kind::DraughtsRu.as_str()])
        .try_map(|name| name.parse::<Kind>())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("ccrelay: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Convert {
            game,
            to,
            lang,
            fen,
            file,
        } => convert::convert_command(game, to, lang, fen, file),
        Command::CheckConfig { file } => check_config_command(&file),
        Command::HashSecret => hash_secret_command(),
        Command::Journal { command } => journal_command(command),
        Command::Admin(args) => admin::admin_command(args),
        Command::Radio { command } => radio::radio_command(command),
        Command::Init { dir, listen } => init_command(&dir, &listen),
        Command::Generate { what, dir } => generate_command(what, &dir),
        Command::Bench {
            games,
            games_per_player,
            plies,
            fill: Some(dir),
            ..
        } => bench::fill_command(games, games_per_player, plies, dir),
        Command::Bench {
            games,
            games_per_player,
            plies,
            rate,
            data_dir,
            fill: None,
            connect,
        } => bench::bench_command(games, games_per_player, plies, rate, data_dir, connect),
        Command::Run { config } => run_command(&config),
    }
}

/// `ccrelay run`: the daemon, until a signal stops it.
fn run_command(config: &Path) -> anyhow::Result<ExitCode> {
    let config = load_config(config)?;
    // Held to the end of `run_command`: dropping it writes out the lines still queued.
    let log_writer = init_logging();
    let runtime = tokio::runtime::Runtime::new().context("starting the runtime")?;
    runtime.block_on(daemon(
        config,
        log_writer.as_ref().map(|l| l.dropped.clone()),
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// `ccrelay check-config`: the configuration read and checked, and what it holds, or what is
/// wrong with it.
fn check_config_command(file: &Path) -> anyhow::Result<ExitCode> {
    let config = load_config(file)?;
    println!(
        "{}: ok ({} players, {} events, {} games; journal in {}; listening on {})",
        file.display(),
        config.players.len(),
        config.events.len(),
        config.games.len(),
        config.data_dir.display(),
        config.tcp.listen
    );
    Ok(ExitCode::SUCCESS)
}

/// `ccrelay hash-secret`: the Argon2id hash of the secret on standard input, for the
/// configuration.
fn hash_secret_command() -> anyhow::Result<ExitCode> {
    let mut secret = String::new();
    io::stdin()
        .lock()
        .read_line(&mut secret)
        .context("reading the secret")?;
    let secret = secret.trim_end_matches(['\n', '\r']);
    if secret.is_empty() {
        bail!("no secret on standard input");
    }
    println!(
        "{}",
        ccrelay::auth::hash_secret(secret).map_err(anyhow::Error::msg)?
    );
    Ok(ExitCode::SUCCESS)
}

fn load_config(path: &Path) -> anyhow::Result<Config> {
    Config::load(path).map_err(|e| anyhow::anyhow!("bad configuration {}:\n{e}", path.display()))
}

/// The writer thread of the log on stderr.
struct LogWriter {
    /// Dropped last: writes out the lines still queued.
    _guard: tracing_appender::non_blocking::WorkerGuard,
    /// Lines dropped because the queue was full.
    dropped: tracing_appender::non_blocking::ErrorCounter,
}

/// Logs to the journal under systemd, else to stderr through a writer thread of its own,
/// returned: kept to the end of `run_command`, its dropping writes out what is still queued.
fn init_logging() -> Option<LogWriter> {
    use tracing_subscriber::prelude::*;
    let filter = tracing_subscriber::EnvFilter::try_from_env("CCRELAY_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Under systemd, log to the journal with structured fields; elsewhere to stderr.
    if std::env::var_os("JOURNAL_STREAM").is_some()
        && let Ok(journald) = tracing_journald::layer()
    {
        tracing_subscriber::registry()
            .with(filter)
            .with(journald)
            .init();
        return None;
    }
    // At `info` a line is logged for every move relayed: written where it is logged, each would
    // be a write call on the move's path. The writer thread writes the lines that queue while
    // it writes in one call. Its queue is bounded: past LOG_LINES_QUEUED lines a line is
    // dropped, not waited for.
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(LOG_LINES_QUEUED)
        .lossy(true)
        .thread_name("ccrelay-log")
        .finish(io::BufWriter::with_capacity(LOG_BUFFER_BYTES, io::stderr()));
    let dropped = writer.error_counter();
    tracing_subscriber::registry()
        .with(filter)
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(writer)
                // Colours for a person at a terminal, plain text for a log file.
                .with_ansi(std::io::IsTerminal::is_terminal(&io::stderr()))
                // The default format's text, for a third of its instructions a line.
                .event_format(log_line::LeanLine::default())
                .fmt_fields(log_line::LeanFields),
        )
        .init();
    Some(LogWriter {
        _guard: guard,
        dropped,
    })
}

/// Log lines waiting for the writer thread at most (a few megabytes of text).
const LOG_LINES_QUEUED: usize = 16_384;
/// The writer thread's buffer: what it gathers into one write call at most.
const LOG_BUFFER_BYTES: usize = 64 * 1024;

async fn daemon(
    config: Config,
    log_dropped: Option<tracing_appender::non_blocking::ErrorCounter>,
) -> anyhow::Result<()> {
    let shutdown = CancellationToken::new();
    if let Some(dropped) = log_dropped {
        tokio::spawn(report_dropped_log_lines(dropped, shutdown.clone()));
    }
    let signals = shutdown.clone();
    tokio::spawn(async move {
        wait_for_signal().await;
        tracing::info!("stopping");
        let _ = sd_notify::notify(&[sd_notify::NotifyState::Stopping]);
        signals.cancel();
    });
    ccrelay::server::run(config, shutdown, |at| {
        match at.http {
            Some(http) => println!("ccrelay listening on {} http {http}", at.tcp),
            None => println!("ccrelay listening on {}", at.tcp),
        }
        let _ = io::stdout().flush();
        let _ = sd_notify::notify(&[sd_notify::NotifyState::Ready]);
    })
    .await?;
    Ok(())
}

/// Says, every ten seconds at most, how many log lines the writer thread dropped since the last
/// time (its queue full: stderr read slower than lines come), and counts them for `/metrics`.
async fn report_dropped_log_lines(
    dropped: tracing_appender::non_blocking::ErrorCounter,
    shutdown: CancellationToken,
) {
    let mut reported = 0;
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(std::time::Duration::from_secs(10)) => {}
        }
        let now = dropped.dropped_lines();
        if now > reported {
            metrics::counter!("ccrelay_log_lines_dropped_total").absolute(now as u64);
            tracing::warn!(
                dropped = now - reported,
                "log lines dropped: stderr is read slower than lines come"
            );
            reported = now;
        }
    }
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

fn init_command(dir: &Path, listen: &str) -> anyhow::Result<ExitCode> {
    let club = ccrelay::init::init(dir, listen)?;
    println!(
        "wrote {} (journal in {})",
        club.config.display(),
        club.data_dir.display()
    );
    println!("secrets, shown this once (the configuration keeps only their Argon2id hashes):");
    for (login, secret) in &club.secrets {
        println!("  {login:<8} {secret}");
    }
    let (game, white, black) = &club.game;
    println!("game {game}: {white} (White) against {black} (Black)");
    println!("start:  ccrelay run --config {}", club.config.display());
    println!(
        "play:   {}   then   LOGIN {white} SECRET   and   MOVE {game} e4",
        club.netcat()
    );
    Ok(ExitCode::SUCCESS)
}

fn generate_command(what: Generated, dir: &Path) -> anyhow::Result<ExitCode> {
    use clap::CommandFactory;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    let mut cli = Cli::command();
    match what {
        Generated::Man => {
            clap_mangen::generate_to(cli, dir)
                .with_context(|| format!("writing manual pages into {}", dir.display()))?;
        }
        Generated::Completions => {
            use clap_complete::Shell;
            for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
                clap_complete::generate_to(shell, &mut cli, "ccrelay", dir)
                    .with_context(|| format!("writing {shell} completions"))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
