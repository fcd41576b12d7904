//! `ccrelay bench --fill`: a large journal made quickly, to measure what a restart costs.
//!
//! Writes the benchmark's configuration (`games` games, `games_per_player` for each player) into a
//! folder as `ccrelay.toml`, and a journal beside it holding every game started and played
//! `plies` half-moves deep: each move chosen at random among the legal ones (a fixed seed, so
//! two fills are the same), read and journaled as the relay would (entry text, ICCF, SAN, the
//! hash chain), many entries per commit. `ccrelay run --config DIR/ccrelay.toml` then starts
//! on it; `ccrelay journal verify` checks it.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use shakmaty::{Chess, Position};
use tokio_util::sync::CancellationToken;

use crate::config::Config;
use crate::game::clock::Rules;
use crate::game::{Action, Game, Kind};
use crate::journal::replay::GameStartDetail;
use crate::journal::{EntryKind, Hub, Journal, NewEntry, Record};
use crate::notation::{Iccf, Lang, Notation};

/// Records appended per commit.
const BATCH: usize = 4096;

/// What to fill.
#[derive(Clone, Debug)]
pub struct FillOptions {
    pub games: usize,
    /// Games each player plays (see [`super::BenchOptions::games_per_player`]).
    pub games_per_player: usize,
    /// Half-moves in each game (fewer if a game ends first).
    pub plies: usize,
    /// The folder for `ccrelay.toml` and the journal (`data/`); must not hold a journal yet.
    pub dir: PathBuf,
    /// Counts the moves written so far, for a progress line.
    pub moves_done: Arc<AtomicUsize>,
}

/// What was written.
#[derive(Clone, Debug)]
pub struct FillReport {
    pub config: PathBuf,
    pub games: usize,
    pub moves: usize,
    pub seconds: f64,
    pub journal_bytes: u64,
}

impl std::fmt::Display for FillReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "config:             {}", self.config.display())?;
        writeln!(f, "games:              {}", self.games)?;
        writeln!(f, "moves:              {}", self.moves)?;
        writeln!(f, "seconds:            {:.1}", self.seconds)?;
        match self.moves {
            0 => write!(f, "journal bytes:      {}", self.journal_bytes),
            moves => write!(
                f,
                "journal bytes/move: {:.0}",
                self.journal_bytes as f64 / moves as f64
            ),
        }
    }
}

/// A small deterministic generator (xorshift): the same journal every time.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Writes the configuration and the journal.
pub async fn fill(options: FillOptions) -> Result<FillReport, String> {
    let started = Instant::now();
    std::fs::create_dir_all(&options.dir).map_err(|e| format!("{}: {e}", options.dir.display()))?;
    let config_path = options.dir.join("ccrelay.toml");
    let data_dir = options.dir.join("data");
    if data_dir.join(crate::journal::store::FILE_NAME).exists() {
        return Err(format!(
            "{} holds a journal already: fill a fresh folder",
            data_dir.display()
        ));
    }
    let text = super::config_text(&data_dir, options.games, options.games_per_player)?;
    let config = Config::from_toml(&text, &options.dir).map_err(|e| e.to_string())?;
    std::fs::write(&config_path, &text).map_err(|e| format!("{}: {e}", config_path.display()))?;
    let (journal, _) = Journal::open(
        &config.data_dir,
        Arc::new(Hub::default()),
        64,
        CancellationToken::new(),
    )
    .map_err(|e| e.to_string())?;

    let mut rng = Rng(0x1886_0001);
    let mut batch = Vec::with_capacity(BATCH);
    let mut moves = 0;
    for g in &config.games {
        batch.push(start_record(g.id.as_str(), &g.white, &g.black)?);
        let mut game = Game::new(&g.id, &g.white, &g.black, None)?;
        let mut pos = Chess::default();
        for _ in 0..options.plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let chosen = legal[rng.below(legal.len())];
            let text = Iccf::from_move(chosen).to_string();
            let color = game.turn();
            let ply = game
                .check_move(color, &text, None, None)
                .map_err(|e| format!("game {}: {text}: {e}", g.id))?
                .ply;
            let mut entry = NewEntry::new(
                &g.id,
                game.player(color),
                "tcp",
                EntryKind::Move,
                &format!("MOVE {} {text}", g.id),
            );
            entry.iccf = Some(game.board().code(&ply));
            entry.san = Some(game.board().write(&ply, Notation::San(Lang::English)));
            game.apply(
                &Action::Move {
                    m: ply,
                    draw_offer: false,
                },
                entry.time,
            );
            pos.play_unchecked(chosen);
            batch.push(Record {
                entry,
                outbox: vec![],
            });
            moves += 1;
            if game.result().is_some() {
                break;
            }
        }
        if batch.len() >= BATCH {
            append(&journal, &mut batch).await?;
            options.moves_done.store(moves, Ordering::Relaxed);
        }
    }
    append(&journal, &mut batch).await?;
    journal.flush().await.map_err(|e| e.to_string())?;
    // As a daemon leaves it at stop. A background snapshot still reading holds the log; the
    // journal is whole either way, and the next start reads that log back.
    if let Err(e) = journal.empty_log().await {
        tracing::warn!(error = %e, "journal log not emptied");
    }
    drop(journal);
    Ok(FillReport {
        config: config_path,
        games: config.games.len(),
        moves,
        seconds: started.elapsed().as_secs_f64(),
        journal_bytes: folder_bytes(&config.data_dir),
    })
}

/// The game's start, as the relay journals a game of the configuration.
fn start_record(id: &str, white: &str, black: &str) -> Result<Record, String> {
    let detail = GameStartDetail {
        kind: Kind::Chess,
        white: white.to_owned(),
        black: black.to_owned(),
        event: None,
        fen: None,
        rules: Some(Rules::default()),
        round: None,
        board: None,
        leave: Default::default(),
        authority: Default::default(),
    };
    let mut entry = NewEntry::new(
        id,
        "admin",
        "config",
        EntryKind::GameStart,
        &format!("CREATE {id} {white} {black}"),
    );
    entry.detail = crate::journal::detail(&detail).map_err(|e| e.to_string())?;
    Ok(Record {
        entry,
        outbox: vec![],
    })
}

async fn append(journal: &Journal, batch: &mut Vec<Record>) -> Result<(), String> {
    if batch.is_empty() {
        return Ok(());
    }
    journal
        .append(std::mem::take(batch))
        .await
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The bytes of the files in `dir` (the journal and its log).
fn folder_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum()
}
