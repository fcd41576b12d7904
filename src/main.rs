//! The command line: parse arguments, call into the library, map failures to exit codes.

#![forbid(unsafe_code)]

use std::fs::File;
use std::io::{self, BufWriter, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use ccrelay::convert::{Format, Options, convert};
use ccrelay::notation::Lang;
use clap::{Parser, Subcommand};
use shakmaty::fen::Fen;

#[derive(Parser)]
#[command(name = "ccrelay", version, about = "A correspondence chess relay")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
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
        } => {
            let input: Box<dyn Read> = match file {
                Some(path) if path.as_os_str() != "-" => Box::new(
                    File::open(&path).with_context(|| format!("cannot read {}", path.display()))?,
                ),
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
    }
}
