//! `ccrelay convert`: games read in any notation and written in another, chess or Russian
//! draughts, from a file or standard input to standard output; a large file shows its
//! progress.

use std::fs::File;
use std::io::{self, BufWriter, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use ccrelay::convert::{Format, Options, convert};
use ccrelay::game::Kind;
use ccrelay::notation::Lang;
use shakmaty::fen::Fen;

use crate::progress::{AboveProgress, progress_bar};

/// `ccrelay convert`: the arguments read for the game's kind, then its conversion.
pub(crate) fn convert_command(
    game: Kind,
    to: Option<String>,
    lang: Option<Lang>,
    fen: Option<String>,
    file: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    match game {
        Kind::Chess => {
            let to: Format = to
                .as_deref()
                .unwrap_or("iccf")
                .parse()
                .map_err(anyhow::Error::msg)?;
            let fen: Option<Fen> = fen
                .map(|f| f.parse())
                .transpose()
                .map_err(|e| anyhow::anyhow!("bad --fen: {e}"))?;
            convert_chess(to, lang, fen, file)
        }
        Kind::DraughtsRu => {
            if lang.is_some() {
                bail!("--lang applies to chess; draughts squares read the same in every language");
            }
            let to: ccrelay::convert::draughts::Format = to
                .as_deref()
                .unwrap_or("alg")
                .parse()
                .map_err(anyhow::Error::msg)?;
            let start = fen
                .map(|f| ccrelay::draughts::setup::parse_any(&f))
                .transpose()
                .map_err(|e| anyhow::anyhow!("bad --fen: {e}"))?;
            convert_draughts(to, start, file)
        }
        other => bail!("convert does not read {other} games"),
    }
}

fn open_input(file: Option<PathBuf>) -> anyhow::Result<Box<dyn Read>> {
    Ok(match file {
        Some(path) if path.as_os_str() != "-" => {
            Box::new(File::open(&path).with_context(|| format!("cannot read {}", path.display()))?)
        }
        _ => Box::new(io::stdin().lock()),
    })
}

fn convert_draughts(
    to: ccrelay::convert::draughts::Format,
    start: Option<ccrelay::draughts::Position>,
    file: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    let input = open_input(file)?;
    let stdout = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = io::stderr().lock();
    let converted = ccrelay::convert::draughts::convert(input, stdout, stderr, to, start);
    conversion_status(converted.map(|t| (t.games, t.failed)))
}

/// The exit status of a conversion that read `(games, failed)`: 0 when every game converted,
/// 1 when one failed. A closed pipe (`| head`) is the reader's choice, not a failure.
fn conversion_status(converted: io::Result<(u64, u64)>) -> anyhow::Result<ExitCode> {
    let (games, failed) = match converted {
        Ok(totals) => totals,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(e).context("convert"),
    };
    if games == 0 {
        eprintln!("ccrelay: the input holds no games");
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn convert_chess(
    to: Format,
    lang: Option<Lang>,
    fen: Option<Fen>,
    file: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    let mut size = None;
    let input: Box<dyn Read> = match file {
        Some(path) if path.as_os_str() != "-" => {
            let f = File::open(&path).with_context(|| format!("cannot read {}", path.display()))?;
            size = f.metadata().ok().map(|m| m.len());
            Box::new(f)
        }
        _ => Box::new(io::stdin().lock()),
    };
    let options = Options {
        to,
        lang,
        start: fen,
    };
    // A large file shows how far it has got, on standard error when that is a terminal;
    // the error lines print above the progress line.
    let bar = match size {
        Some(bytes) if bytes >= LARGE_INPUT => progress_bar(Some(bytes), "bytes"),
        _ => indicatif::ProgressBar::hidden(),
    };
    let input = bar.wrap_read(input);
    let stdout = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = AboveProgress {
        bar: bar.clone(),
        inner: io::stderr(),
    };
    let converted = convert(input, stdout, stderr, &options);
    bar.finish_and_clear();
    conversion_status(converted.map(|t| (t.games, t.failed)))
}

/// Input files from this size on get a progress line.
const LARGE_INPUT: u64 = 4 << 20;
