//! The command line only: parse arguments, load config, set up logging, call into the library,
//! map failures to exit codes.

#![forbid(unsafe_code)]

use std::fs::File;
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use ccrelay::config::Config;
use ccrelay::convert::{Format, Options, convert};
use ccrelay::journal::export::{EventInfo, ExportFormat, Names, PlayerInfo, crosstable, export};
use ccrelay::journal::{store, verify};
use ccrelay::notation::Lang;
use clap::{Parser, Subcommand};
use shakmaty::fen::Fen;
use tokio_util::sync::CancellationToken;

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
        /// Concurrent games (two players, two connections each).
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// Half-moves played in every game.
        #[arg(long, default_value_t = 40)]
        plies: usize,
        /// Moves per second offered across all games; 0 for as fast as the relay answers.
        #[arg(long, default_value_t = 5000.0)]
        rate: f64,
        /// Journal folder (default: a fresh folder under the temporary folder, removed after).
        #[arg(long)]
        data_dir: Option<PathBuf>,
    },
    /// The official record.
    Journal {
        #[command(subcommand)]
        command: JournalCommand,
    },
    /// Convert games between notations: ICCF numeric, SAN and long algebraic in any language,
    /// UCI, PGN, JSON. Reads PGN or plain movetext.
    Convert {
        /// Output format: iccf, san, lan, uci, pgn, json.
        #[arg(long, default_value = "iccf")]
        to: Format,
        /// The players' language (en, ru, uk, de, fr, ...; figurine): moves are read in it and
        /// SAN/LAN written in it. Without it, any language is read, English first.
        #[arg(long)]
        lang: Option<Lang>,
        /// Start position (FEN) of games that have no FEN tag.
        #[arg(long)]
        fen: Option<Fen>,
        /// Input file; `-` or nothing for standard input.
        file: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum JournalCommand {
    /// Check the hash chain and replay every game.
    Verify {
        #[arg(long, default_value = "config/ccrelay.toml")]
        config: PathBuf,
    },
    /// Write a game's official record.
    Export {
        #[arg(long, default_value = "config/ccrelay.toml")]
        config: PathBuf,
        #[arg(long)]
        game: String,
        /// pgn, iccf (the numeric scoresheet), report (readable) or text (every entry).
        #[arg(long, default_value = "pgn")]
        format: ExportFormat,
    },
    /// An event's crosstable: every player against every other, points and places.
    Crosstable {
        #[arg(long, default_value = "config/ccrelay.toml")]
        config: PathBuf,
        #[arg(long)]
        event: String,
    },
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
            to,
            lang,
            fen,
            file,
        } => convert_command(to, lang, fen, file),
        Command::CheckConfig { file } => {
            let config = load_config(&file)?;
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
        Command::HashSecret => {
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
        Command::Journal { command } => journal_command(command),
        Command::Bench {
            games,
            plies,
            rate,
            data_dir,
        } => {
            let runtime = tokio::runtime::Runtime::new().context("starting the runtime")?;
            let options = ccrelay::bench::BenchOptions {
                games,
                plies,
                rate,
                data_dir,
            };
            let report = runtime
                .block_on(ccrelay::bench::run(options))
                .map_err(anyhow::Error::msg)?;
            println!("{report}");
            Ok(ExitCode::SUCCESS)
        }
        Command::Run { config } => {
            let config = load_config(&config)?;
            init_logging();
            let runtime = tokio::runtime::Runtime::new().context("starting the runtime")?;
            runtime.block_on(daemon(config))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn load_config(path: &Path) -> anyhow::Result<Config> {
    Config::load(path).map_err(|e| anyhow::anyhow!("bad configuration {}:\n{e}", path.display()))
}

fn init_logging() {
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
        return;
    }
    tracing_subscriber::registry()
        .with(filter)
        .with(tracing_subscriber::fmt::layer().with_writer(io::stderr))
        .init();
}

async fn daemon(config: Config) -> anyhow::Result<()> {
    let shutdown = CancellationToken::new();
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

fn journal_command(command: JournalCommand) -> anyhow::Result<ExitCode> {
    match command {
        JournalCommand::Verify { config } => {
            let config = load_config(&config)?;
            let conn = store::open_read_only(&config.data_dir)?;
            match verify(&conn) {
                Ok(replayed) => {
                    println!(
                        "journal ok: {} entries, {} games, hash chain intact",
                        replayed.entries,
                        replayed.games.len()
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => {
                    eprintln!("ccrelay: journal verify failed: {e}");
                    Ok(ExitCode::from(1))
                }
            }
        }
        JournalCommand::Export {
            config,
            game,
            format,
        } => {
            let config = load_config(&config)?;
            let conn = store::open_read_only(&config.data_dir)?;
            let text = export(&conn, &game, format, &names(&config))?;
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        JournalCommand::Crosstable { config, event } => {
            let config = load_config(&config)?;
            let conn = store::open_read_only(&config.data_dir)?;
            print!("{}", crosstable(&conn, &event, &names(&config))?);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The names the records use, from the configuration.
fn names(config: &ccrelay::config::Config) -> Names {
    Names {
        events: config
            .events
            .values()
            .map(|e| {
                let info = EventInfo {
                    name: e.name.clone(),
                    site: e.site.clone(),
                };
                (e.id.clone(), info)
            })
            .collect(),
        players: config
            .players
            .values()
            .map(|p| {
                let info = PlayerInfo {
                    name: p.name.clone(),
                    address: p.email.as_ref().map(|e| e.address.clone()),
                };
                (p.id.clone(), info)
            })
            .collect(),
    }
}

fn convert_command(
    to: Format,
    lang: Option<Lang>,
    fen: Option<Fen>,
    file: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    let input: Box<dyn Read> = match file {
        Some(path) if path.as_os_str() != "-" => {
            Box::new(File::open(&path).with_context(|| format!("cannot read {}", path.display()))?)
        }
        _ => Box::new(io::stdin().lock()),
    };
    let options = Options {
        to,
        lang,
        start: fen,
    };
    let stdout = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = io::stderr().lock();
    let totals = match convert(input, stdout, stderr, &options) {
        Ok(totals) => totals,
        // A closed pipe (`| head`) is the reader's choice, not a failure.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(e).context("convert"),
    };
    if totals.games == 0 {
        eprintln!("ccrelay: the input holds no games");
    }
    Ok(if totals.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
