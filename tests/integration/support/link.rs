//! Two nodes joined by a link: a node's config (its local players, the remote ones across link
//! `peer`, the games, the link table), the match the link tests play, a game's moves and record
//! read from a node's journal, and a man in the middle of the two nodes.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::config::ADMIN_SECRET;
use super::daemon::Daemon;
use super::journal::journal_export;

/// The secret the two nodes share for link `peer`.
pub const SECRET: &str = "a shared secret of the two clubs";

/// A node: its folder, its config and its daemon.
pub struct Node {
    pub dir: tempfile::TempDir,
    pub config: PathBuf,
    pub daemon: Daemon,
}

impl Node {
    /// Kills the daemon (`kill -9`) and starts it again on the same config.
    pub fn restart(&mut self) {
        self.daemon.kill9();
        self.daemon = Daemon::start(&self.config);
    }
}

/// A node's config: its `local` players (secret = id + "-secret", reading ICCF), the `remote`
/// ones across link `peer`, the games, and the link table: its id and secret, then `link`.
pub fn node_config_with(
    data: &Path,
    local: &[&str],
    remote: &[&str],
    games: &[(&str, &str, &str)],
    link: &str,
) -> String {
    let hash = |s: &str| ccrelay::auth::hash_secret_cheap(s).expect("hash");
    let mut text = format!(
        "data_dir = {:?}\n[tcp]\nlisten = \"127.0.0.1:0\"\n[admin]\nsecret_hash = {:?}\n",
        data.display().to_string(),
        hash(ADMIN_SECRET)
    );
    for p in local {
        text.push_str(&format!(
            "[[players]]\nid = {p:?}\nsecret_hash = {:?}\nnotation = \"iccf\"\n",
            hash(&format!("{p}-secret"))
        ));
    }
    for p in remote {
        text.push_str(&format!(
            "[[players]]\nid = {p:?}\nreach = \"link\"\nlink = \"peer\"\n"
        ));
    }
    for (id, white, black) in games {
        text.push_str(&format!(
            "[[games]]\nid = {id:?}\nwhite = {white:?}\nblack = {black:?}\n"
        ));
    }
    text.push_str(&format!(
        "[[links]]\nid = \"peer\"\nsecret = {SECRET:?}\n{link}"
    ));
    text
}

/// A game's record in a node's journal, as `ccrelay journal export` writes it in text.
fn export_text(config: &Path, game: &str) -> String {
    journal_export(config, game, "text")
}

/// A game's moves in a node's journal, in order: (player, ICCF).
pub fn moves_of(config: &Path, game: &str) -> Vec<(String, String)> {
    export_text(config, game)
        .lines()
        .filter_map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            (cols.len() > 5 && cols[0].starts_with('#') && cols[4] == "move").then(|| {
                let iccf = cols.last().unwrap().trim_matches(['(', ')']).to_owned();
                (cols[2].to_owned(), iccf)
            })
        })
        .collect()
}

/// How many `rejected` entries a node's journal holds for a game.
pub fn rejected_in(config: &Path, game: &str) -> usize {
    export_text(config, game)
        .lines()
        .filter(|l| l.split_whitespace().nth(4) == Some("rejected"))
        .count()
}

/// The match: three games between the clubs, players on both nodes, White on either side.
pub const GAMES: [(&str, &str, &str); 3] = [
    ("m1", "anna", "boris"),
    ("m2", "vera", "anna"),
    ("m3", "anna", "vera"),
];

/// Who is where: anna on node A; boris and vera on node B.
pub fn local_of(player: &str) -> usize {
    if player == "anna" { 0 } else { 1 }
}

/// A game's official record in a node's journal, as both nodes must hold it: every entry
/// but refused attempts, proposals, reminders and conditional lines (each node's own), as
/// (time, player, kind, move and detail); and the result line.
fn record_of(config: &Path, game: &str) -> (Vec<(String, String, String, String)>, String) {
    let text = export_text(config, game);
    let result = text
        .lines()
        .find(|l| l.starts_with("Result:"))
        .unwrap_or_default()
        .to_owned();
    let actions = text
        .lines()
        .filter_map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            let official = cols.len() > 5
                && cols[0].starts_with('#')
                && !matches!(
                    cols[4],
                    "rejected" | "reminder" | "proposal" | "conditional"
                );
            // What follows the text as received (which each node has its own of).
            let tail = match (l.rfind(" = "), l.rfind(" [")) {
                (Some(m), _) => &l[m..],
                (None, Some(d)) => &l[d..],
                (None, None) => "",
            };
            official.then(|| {
                (
                    cols[1].to_owned(),
                    cols[2].to_owned(),
                    cols[4].to_owned(),
                    tail.to_owned(),
                )
            })
        })
        .collect();
    (actions, result)
}

/// Waits until both nodes hold the same record of `game` (the node that does not keep it
/// applies the record as it comes), and returns it.
pub fn settled(nodes: &[Node], game: &str) -> (Vec<(String, String, String, String)>, String) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let a = record_of(&nodes[0].config, game);
        let b = record_of(&nodes[1].config, game);
        if a == b {
            return a;
        }
        assert!(
            Instant::now() < deadline,
            "{game}: the two nodes' records differ:\n{a:?}\n{b:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A man in the middle of two linked nodes: two loopback ports, one for each node to connect
/// to; each pair of connections accepted (the n-th on both ports) is joined by `pump`, called
/// once a direction with `2n` (first port to second) and `2n + 1` (back), until either
/// direction ends and both connections close. Returns the ports and the runtime serving them:
/// dropping it closes everything.
pub fn middle<P, F>(pump: P) -> ((u16, u16), tokio::runtime::Runtime)
where
    P: Fn(tokio::net::tcp::OwnedReadHalf, tokio::net::tcp::OwnedWriteHalf, u64) -> F
        + Send
        + 'static,
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime");
    let (la, lb) = runtime.block_on(async {
        (
            tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
            tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
        )
    });
    let ports = (
        la.local_addr().unwrap().port(),
        lb.local_addr().unwrap().port(),
    );
    runtime.spawn(async move {
        let mut round = 0u64;
        loop {
            let (Ok((a, _)), Ok((b, _))) = tokio::join!(la.accept(), lb.accept()) else {
                return;
            };
            round += 1;
            let (ar, aw) = a.into_split();
            let (br, bw) = b.into_split();
            let one = pump(ar, bw, round * 2);
            let two = pump(br, aw, round * 2 + 1);
            // When either direction ends, both connections close with this scope.
            tokio::select! {
                () = one => {}
                () = two => {}
            }
        }
    });
    (ports, runtime)
}
