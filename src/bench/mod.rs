//! `ccrelay bench`: a load benchmark of the whole relay over loopback, fsync on.
//!
//! Starts a daemon in-process on a fresh data directory with `games` games, played in pairs
//! of players `games_per_player` games at a time (one game each by default, as correspondence
//! players often hold a dozen), logs every player in on its own TCP connection, then plays
//! every game at once: each move is sent by one player, journaled, and pushed to the opponent, who
//! acknowledges it (another journal write) and answers. The load is offered at a fixed rate
//! (open loop): latency runs from the moment a move was due to be sent, so a relay that falls
//! behind shows it. Reports moves per second and the latency from a player's send to the
//! opponent's receipt (p50, p99, max), and the memory the idle games take.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio_util::sync::CancellationToken;

use crate::config::Config;

pub mod fill;

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub games: usize,
    /// Games each player plays at once, all against the same opponent over the same two
    /// connections: at 1, two connections a game; at 10, a fifth of a connection a game.
    pub games_per_player: usize,
    /// Half-moves played in each game.
    pub plies: usize,
    /// Moves per second offered across all games (each game moves every `games / rate`
    /// seconds); 0 plays every game as fast as it goes.
    pub rate: f64,
    /// Where the journal goes (a fresh folder under the system's temporary folder if unset).
    pub data_dir: Option<PathBuf>,
    /// Counts the moves relayed so far, for a progress line.
    pub moves_done: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

/// What was measured.
#[derive(Clone, Debug)]
pub struct BenchReport {
    pub games: usize,
    /// Players logged in, each on one connection.
    pub players: usize,
    pub offered_rate: f64,
    pub moves: usize,
    pub seconds: f64,
    pub moves_per_second: f64,
    pub p50: Duration,
    pub p99: Duration,
    pub max: Duration,
    /// Resident memory added by starting the relay with the games loaded and idle, per game.
    /// Resident memory added by starting the relay with the games loaded and idle, per game
    /// (`None` against a daemon of its own, which this process cannot measure).
    pub idle_bytes_per_game: Option<f64>,
}

impl std::fmt::Display for BenchReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "games:              {}", self.games)?;
        writeln!(f, "players:            {}", self.players)?;
        if self.offered_rate > 0.0 {
            writeln!(f, "offered moves/s:    {:.0}", self.offered_rate)?;
        } else {
            writeln!(f, "offered moves/s:    as fast as the relay answers")?;
        }
        writeln!(f, "moves:              {}", self.moves)?;
        writeln!(f, "seconds:            {:.2}", self.seconds)?;
        writeln!(f, "moves/s:            {:.0}", self.moves_per_second)?;
        writeln!(
            f,
            "latency p50:        {:.2} ms",
            self.p50.as_secs_f64() * 1e3
        )?;
        writeln!(
            f,
            "latency p99:        {:.2} ms",
            self.p99.as_secs_f64() * 1e3
        )?;
        writeln!(
            f,
            "latency max:        {:.2} ms",
            self.max.as_secs_f64() * 1e3
        )?;
        match self.idle_bytes_per_game {
            Some(bytes) => write!(f, "memory/idle game:   {bytes:.0} bytes"),
            None => write!(
                f,
                "memory/idle game:   (the daemon's own: not measured here)"
            ),
        }
    }
}

fn rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kib| kib * 1024)
}

fn config(data_dir: &std::path::Path, games: usize, per_player: usize) -> Result<Config, String> {
    let text = config_text(data_dir, games, per_player)?;
    Config::from_toml(&text, data_dir).map_err(|e| e.to_string())
}

/// The players of game `g`: the pair `g / per_player` (see [`config_text`]).
fn pair_of(g: usize, per_player: usize) -> usize {
    g / per_player.max(1)
}

/// When game `g` of `games` moves first, as a fraction of the interval between two of its
/// moves: the games are spread evenly over the interval, so the offered load is even, and a
/// pair's games (`per_player` of them, played one move at a time over the pair's two
/// connections) are spread evenly among themselves. Given consecutive moments, a pair's games
/// would all be due within a fraction of a millisecond, and each of its moves would wait for
/// the ones before it: the benchmark would measure its own queue, not the relay.
fn first_due(g: usize, games: usize, per_player: usize) -> f64 {
    let per_player = per_player.max(1);
    let pairs = games.div_ceil(per_player);
    let slot = (g % per_player) * pairs + pair_of(g, per_player);
    slot as f64 / (per_player * pairs) as f64
}

/// The opponent of `player` in every game the benchmark's configuration gives them: `p{2k}`
/// plays `p{2k+1}` (see `config_text`). For a server that stands in for the daemon under `ccrelay
/// bench --connect` (`examples/wire_floor.rs`); `None` for a name not of that form.
pub fn opponent_of(player: &str) -> Option<String> {
    let n: u64 = player.strip_prefix('p')?.parse().ok()?;
    Some(format!("p{}", n ^ 1))
}

/// How many players `games` games at `per_player` games each need: two a pair.
fn players_for(games: usize, per_player: usize) -> usize {
    2 * games.div_ceil(per_player.max(1))
}

/// Players logging in at once, each on a connection of its own from this machine's address.
const LOGINS_AT_ONCE: usize = 64;

/// The benchmark's configuration: `games` games, game `g` between players `p{2k}` (white) and
/// `p{2k+1}` for its pair `k` (each with the secret `bench`), the journal in `data_dir`, any
/// free port.
fn config_text(
    data_dir: &std::path::Path,
    games: usize,
    per_player: usize,
) -> Result<String, String> {
    let players = players_for(games, per_player);
    let hash = crate::auth::hash_secret_cheap("bench")?;
    // Every player logs in from one address, LOGINS_AT_ONCE at a time: the limit on logins
    // checked at once from one address (counted before the check), and on connections from
    // one address not logged in yet, must let that many through.
    let mut text = format!(
        "data_dir = {:?}\n[tcp]\nlisten = \"127.0.0.1:0\"\n[limits]\nmax_connections = {}\nmax_connections_per_address_before_login = {}\ncommands_per_minute = 1000000\nfailed_logins_per_minute = {}\nidle_timeout_secs = 3600\n",
        data_dir.display().to_string(),
        players + 16,
        LOGINS_AT_ONCE + 16,
        (players + 16).min(10_000)
    );
    for i in 0..players {
        text.push_str(&format!(
            "[[players]]\nid = \"p{i}\"\nsecret_hash = {hash:?}\n"
        ));
    }
    for g in 0..games {
        let pair = pair_of(g, per_player);
        text.push_str(&format!(
            "[[games]]\nid = \"g{g}\"\nwhite = \"p{}\"\nblack = \"p{}\"\n",
            2 * pair,
            2 * pair + 1
        ));
    }
    Ok(text)
}

/// A line-protocol client: replies in order, pushes set aside.
struct Client {
    lines: tokio::io::Lines<BufReader<OwnedReadHalf>>,
    writer: OwnedWriteHalf,
    pushes: VecDeque<i64>,
    /// ACKs sent whose replies are not read yet: they come before any later command's reply,
    /// and may come before a push.
    acks_pending: usize,
}

impl Client {
    async fn connect(addr: SocketAddr, player: &str) -> std::io::Result<Client> {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (read, writer) = stream.into_split();
        let mut client = Client {
            lines: BufReader::new(read).lines(),
            writer,
            pushes: VecDeque::new(),
            acks_pending: 0,
        };
        client.reply().await?; // greeting
        client.send(&format!("LOGIN {player} bench")).await?;
        let (code, _) = client.reply().await?;
        if code != 230 {
            return Err(std::io::Error::other(format!("login {player}: {code}")));
        }
        Ok(client)
    }

    async fn send(&mut self, line: &str) -> std::io::Result<()> {
        self.writer.write_all(format!("{line}\n").as_bytes()).await
    }

    async fn line(&mut self) -> std::io::Result<String> {
        self.lines
            .next_line()
            .await?
            .ok_or_else(|| std::io::Error::other("connection closed"))
    }

    fn take_push(&mut self, line: &str) -> bool {
        match line
            .strip_prefix("* ")
            .and_then(|rest| rest.split(' ').next())
            .and_then(|id| id.parse().ok())
        {
            Some(id) => {
                self.pushes.push_back(id);
                true
            }
            None => false,
        }
    }

    /// Acknowledges push `id`; its reply is read with the next one.
    async fn ack(&mut self, id: i64) -> std::io::Result<()> {
        self.send(&format!("ACK {id}")).await?;
        self.acks_pending += 1;
        Ok(())
    }

    /// Takes `line` as the reply to an ACK if one is pending; an error if it refused.
    fn take_ack_reply(&mut self, line: &str) -> std::io::Result<bool> {
        if self.acks_pending == 0 {
            return Ok(false);
        }
        if !line.starts_with("250 ") {
            return Err(std::io::Error::other(format!("ACK refused: {line:?}")));
        }
        self.acks_pending -= 1;
        Ok(true)
    }

    /// The code of the next reply that is not an ACK's, and its last line, setting pushes
    /// aside.
    async fn reply(&mut self) -> std::io::Result<(u16, String)> {
        loop {
            let line = self.line().await?;
            if self.take_push(&line) || line.as_bytes().get(3) == Some(&b'-') {
                continue;
            }
            if self.take_ack_reply(&line)? {
                continue;
            }
            return match line.get(..3).and_then(|c| c.parse().ok()) {
                Some(code) => Ok((code, line)),
                None => Err(std::io::Error::other(format!("bad reply {line:?}"))),
            };
        }
    }

    /// The next push's id.
    async fn push(&mut self) -> std::io::Result<i64> {
        loop {
            if let Some(id) = self.pushes.pop_front() {
                return Ok(id);
            }
            let line = self.line().await?;
            if !self.take_push(&line) && !self.take_ack_reply(&line)? {
                return Err(std::io::Error::other(format!(
                    "expected a push, got {line:?}"
                )));
            }
        }
    }

    /// Reads the replies to every ACK sent.
    async fn finish(&mut self) -> std::io::Result<()> {
        while self.acks_pending > 0 {
            let line = self.line().await?;
            if !self.take_push(&line) {
                self.take_ack_reply(&line)?;
            }
        }
        Ok(())
    }
}

/// How long a move's reply and push may take, at most, before the run gives up.
const ANSWER_WITHIN: Duration = Duration::from_secs(60);

/// Knights out and back: legal forever, so any number of plies can be played.
const DANCE: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];

/// Plays one pair's games over its two connections, one ply at a time in the order they fall
/// due: `games` are the games' numbers, each with the moment its first ply is due and the
/// interval between plies (`None`: at once, a ply of each game in turn).
async fn play(
    games: Vec<(usize, Option<(Instant, Duration)>)>,
    plies: usize,
    mut white: Client,
    mut black: Client,
    done: std::sync::Arc<std::sync::atomic::AtomicUsize>,
) -> std::io::Result<Vec<Duration>> {
    let mut turns: Vec<(Option<Instant>, usize, usize)> = (0..plies)
        .flat_map(|ply| {
            games.iter().map(move |&(game, schedule)| {
                let due = schedule.map(|(first, every)| first + every * ply as u32);
                (due, game, ply)
            })
        })
        .collect();
    turns.sort_by_key(|&(due, _, _)| due); // stable: at once, ply by ply
    let mut latencies = Vec::with_capacity(turns.len());
    for (due, game, ply) in turns {
        let (mover, receiver) = if ply % 2 == 0 {
            (&mut white, &mut black)
        } else {
            (&mut black, &mut white)
        };
        let due = match due {
            Some(due) => {
                tokio::time::sleep_until(due.into()).await;
                due
            }
            None => Instant::now(),
        };
        mover
            .send(&format!("MOVE g{game} {}", DANCE[ply % 4]))
            .await?;
        // The opponent's push and the mover's reply come on two connections in either order;
        // a refused move has no push, so the reply is read as soon as it comes.
        let answered = async {
            tokio::select! {
                id = receiver.push() => {
                    let id = id?;
                    let latency = due.elapsed();
                    let reply = mover.reply().await?;
                    Ok::<_, std::io::Error>((id, latency, reply))
                }
                reply = mover.reply() => {
                    let reply = reply?;
                    if reply.0 != 250 {
                        return Ok((0, due.elapsed(), reply));
                    }
                    let id = receiver.push().await?;
                    Ok((id, due.elapsed(), reply))
                }
            }
        };
        let (id, latency, (code, line)) = tokio::time::timeout(ANSWER_WITHIN, answered)
            .await
            .map_err(|_| {
                std::io::Error::other(format!(
                    "game g{game} ply {ply}: no answer within {} s",
                    ANSWER_WITHIN.as_secs()
                ))
            })??;
        if code != 250 {
            return Err(std::io::Error::other(format!(
                "game g{game} ply {ply}: {line} (a benchmark plays its games from their start: \
                 fill a fresh directory with `ccrelay bench --fill`)"
            )));
        }
        latencies.push(latency);
        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        receiver.ack(id).await?;
    }
    let finished = async {
        white.finish().await?;
        black.finish().await
    };
    tokio::time::timeout(ANSWER_WITHIN, finished)
        .await
        .map_err(|_| std::io::Error::other("the last acknowledgements were not answered"))??;
    Ok(latencies)
}

/// Runs the benchmark.
pub async fn run(options: BenchOptions) -> Result<BenchReport, String> {
    let own_dir = options.data_dir.is_none();
    let data_dir = options.data_dir.clone().unwrap_or_else(|| {
        std::env::temp_dir().join(format!("ccrelay-bench-{}", std::process::id()))
    });
    if own_dir {
        let _ = std::fs::remove_dir_all(&data_dir);
    }
    let config = config(&data_dir, options.games, options.games_per_player)?;
    // Both ends of every player's connection, in this one process.
    crate::open_files::raise().check(
        2 * players_for(options.games, options.games_per_player) as u64 + 64,
        &format!("a benchmark of {} games", options.games),
        "play fewer games",
    )?;
    let rss_before = rss_bytes();
    let shutdown = CancellationToken::new();
    let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
    let server = tokio::spawn(crate::server::run(
        config,
        shutdown.clone(),
        move |at: crate::server::Listening| {
            let _ = ready_tx.send(at.tcp);
        },
    ));
    let addr = ready_rx
        .await
        .map_err(|_| "the relay did not start".to_owned())?;
    let idle_bytes_per_game =
        rss_bytes().saturating_sub(rss_before) as f64 / options.games.max(1) as f64;
    // Every player has its GAME message waiting (the relay started the games).
    let mut report = drive(addr, &options, true).await;
    shutdown.cancel();
    server
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
    if own_dir {
        let _ = std::fs::remove_dir_all(&data_dir);
    }
    if let Ok(report) = &mut report {
        report.idle_bytes_per_game = Some(idle_bytes_per_game);
    }
    report
}

/// Runs the benchmark against a daemon running as its own process at `addr`, so that its CPU
/// and memory can be measured apart from the clients'. The daemon must run the benchmark's
/// configuration: `ccrelay bench --fill DIR --plies 0 --games G` writes it (and starts the
/// games in its journal, with the same `--games-per-player`), then `ccrelay run --config
/// DIR/ccrelay.toml`.
pub async fn run_against(addr: SocketAddr, options: BenchOptions) -> Result<BenchReport, String> {
    // One end of every player's connection in this process.
    crate::open_files::raise().check(
        players_for(options.games, options.games_per_player) as u64 + 64,
        &format!("a benchmark of {} games", options.games),
        "play fewer games",
    )?;
    drive(addr, &options, false).await
}

/// Logs every player in, plays every game, and measures; `game_pushes`: each player first
/// reads the GAME push of its game's start.
async fn drive(
    addr: SocketAddr,
    options: &BenchOptions,
    game_pushes: bool,
) -> Result<BenchReport, String> {
    // Log in a bounded number at a time, as a real crowd arrives, not all in one burst.
    let connecting = std::sync::Arc::new(tokio::sync::Semaphore::new(LOGINS_AT_ONCE));
    let per_player = options.games_per_player.max(1);
    let mut logins = tokio::task::JoinSet::new();
    for pair in 0..players_for(options.games, per_player) / 2 {
        let connecting = connecting.clone();
        let games = pair * per_player..((pair + 1) * per_player).min(options.games);
        logins.spawn(async move {
            let _permit = connecting
                .acquire_owned()
                .await
                .map_err(std::io::Error::other)?;
            let login = async {
                let white = Client::connect(addr, &format!("p{}", 2 * pair)).await?;
                let black = Client::connect(addr, &format!("p{}", 2 * pair + 1)).await?;
                Ok::<_, std::io::Error>((games, white, black))
            };
            tokio::time::timeout(Duration::from_secs(60), login)
                .await
                .map_err(|_| std::io::Error::other("login timed out"))?
        });
    }
    let mut pairs = Vec::with_capacity(options.games.div_ceil(per_player));
    while let Some(joined) = logins.join_next().await {
        pairs.push(
            joined
                .map_err(|e| e.to_string())?
                .map_err(|e| e.to_string())?,
        );
    }
    // Read the GAME messages waiting before the clock starts: one a game for each player.
    for (games, white, black) in pairs.iter_mut().filter(|_| game_pushes) {
        for _ in games.clone() {
            let both = async {
                white.push().await?;
                black.push().await
            };
            tokio::time::timeout(ANSWER_WITHIN, both)
                .await
                .map_err(|_| "a game's start was not pushed".to_owned())?
                .map_err(|e| e.to_string())?;
        }
    }

    let started = Instant::now();
    let every =
        (options.rate > 0.0).then(|| Duration::from_secs_f64(options.games as f64 / options.rate));
    let players = 2 * pairs.len();
    let mut playing = tokio::task::JoinSet::new();
    for (games, white, black) in pairs {
        let games = games
            .map(|g| {
                let schedule = every.map(|every| {
                    (
                        started + every.mul_f64(first_due(g, options.games, per_player)),
                        every,
                    )
                });
                (g, schedule)
            })
            .collect();
        playing.spawn(play(
            games,
            options.plies,
            white,
            black,
            options.moves_done.clone(),
        ));
    }
    let mut latencies = Vec::with_capacity(options.games * options.plies);
    while let Some(joined) = playing.join_next().await {
        latencies.extend(
            joined
                .map_err(|e| e.to_string())?
                .map_err(|e| e.to_string())?,
        );
    }
    let seconds = started.elapsed().as_secs_f64();
    latencies.sort_unstable();
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    Ok(BenchReport {
        games: options.games,
        players,
        offered_rate: options.rate,
        moves: latencies.len(),
        seconds,
        moves_per_second: latencies.len() as f64 / seconds,
        p50: at(0.50),
        p99: at(0.99),
        max: latencies.last().copied().unwrap_or_default(),
        idle_bytes_per_game: None,
    })
}

#[cfg(test)]
mod tests;
