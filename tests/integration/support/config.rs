//! The daemon's configuration as the tests write it: the players Alice, Boris and Carol and
//! the arbiter's secret; a config's text for players and games (cheap hashes, port 0); one
//! written into a temporary folder.

use std::path::{Path, PathBuf};

/// A player reached over TCP, as a config lists them.
pub struct Player {
    pub id: &'static str,
    pub secret: &'static str,
    pub notation: &'static str,
    pub lang: Option<&'static str>,
}

/// Alice reads standard algebraic notation (SAN) in English.
pub const ALICE: Player = Player {
    id: "alice",
    secret: "alice-secret",
    notation: "san",
    lang: None,
};
/// Boris reads long algebraic notation (LAN) in Russian.
pub const BORIS: Player = Player {
    id: "boris",
    secret: "boris-secret",
    notation: "lan",
    lang: Some("ru"),
};
/// Carol reads SAN in English, as Alice does.
pub const CAROL: Player = Player {
    id: "carol",
    secret: "carol-secret",
    notation: "san",
    lang: None,
};

/// The arbiter's secret (`LOGIN admin ...`, the web's arbiter login).
pub const ADMIN_SECRET: &str = "admin-secret";

/// A config for `players` and `games` (id, white, black), cheap hashes, port 0.
pub fn config_text(data_dir: &Path, players: &[Player], games: &[(&str, &str, &str)]) -> String {
    config_text_with(data_dir, players, games, "max_line_bytes = 200\n")
}

/// The same with other `[limits]`.
pub fn config_text_with(
    data_dir: &Path,
    players: &[Player],
    games: &[(&str, &str, &str)],
    limits: &str,
) -> String {
    let hash = |s: &str| ccrelay::auth::hash_secret_cheap(s).expect("hash");
    let mut text = format!(
        "data_dir = {:?}\n[tcp]\nlisten = \"127.0.0.1:0\"\n[limits]\n{limits}[admin]\nsecret_hash = {:?}\n",
        data_dir.display().to_string(),
        hash(ADMIN_SECRET)
    );
    text.push_str(&players_and_games_toml(players, games));
    text
}

/// `[[players]]` tables for TCP players (cheap hashes of their secrets), then `[[games]]`.
pub fn players_and_games_toml(players: &[Player], games: &[(&str, &str, &str)]) -> String {
    let hash = |s: &str| ccrelay::auth::hash_secret_cheap(s).expect("hash");
    let mut text = String::new();
    for p in players {
        text.push_str(&format!(
            "[[players]]\nid = {:?}\nsecret_hash = {:?}\nnotation = {:?}\n",
            p.id,
            hash(p.secret),
            p.notation
        ));
        if let Some(lang) = p.lang {
            text.push_str(&format!("lang = {lang:?}\n"));
        }
    }
    for (id, white, black) in games {
        text.push_str(&format!(
            "[[games]]\nid = {id:?}\nwhite = {white:?}\nblack = {black:?}\n"
        ));
    }
    text
}

/// A temporary folder holding `ccrelay.toml` for `players` and `games`, its data folder in it;
/// the folder (removed when dropped) and the config's path.
pub fn temp_setup(
    players: &[Player],
    games: &[(&str, &str, &str)],
) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    std::fs::write(
        &config,
        config_text(&dir.path().join("data"), players, games),
    )
    .expect("write config");
    (dir, config)
}
