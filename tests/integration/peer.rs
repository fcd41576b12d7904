//! ccrelay against a real peer: Debian's pgn-extract, on real games (lichess and TWIC samples).
//! `.ci/run` installs pgn-extract; without it these tests fail, they never skip.

use std::path::Path;

use crate::support::fixtures::fixture;
use crate::support::peers::pgn_extract;
use crate::support::process::ccrelay;

const GAMES: [&str; 2] = ["games/lichess_db_1000k.pgn", "games/twic1599_1000k.pgn"];

/// pgn-extract's games as lines of moves (`-W<format>`), without numbers and results.
fn peer_games(file: &Path, format: &str) -> Vec<Vec<String>> {
    let output = pgn_extract()
        .args([
            format!("-W{format}").as_str(),
            "--notags",
            "-C",
            "-N",
            "-V",
            "-s",
            "--noresults",
            "-w",
            "1000000",
        ])
        .arg(file)
        .output()
        .expect("run pgn-extract");
    assert!(
        output.status.success(),
        "pgn-extract failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("pgn-extract output is ASCII")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            line.split_whitespace()
                .filter(|t| !t.ends_with('.') && !matches!(*t, "1-0" | "0-1" | "1/2-1/2" | "*"))
                .map(str::to_owned)
                .collect()
        })
        .collect()
}

fn ours(file: &Path, to: &str) -> String {
    let output = ccrelay()
        .args(["convert", "--to", to])
        .arg(file)
        .output()
        .expect("run ccrelay");
    assert!(
        output.status.success(),
        "ccrelay failed on {}: {}",
        file.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn uci_output_matches_pgn_extract_on_real_games() {
    for name in GAMES {
        let file = fixture(name);
        let theirs = peer_games(&file, "uci");
        let ours: Vec<Vec<String>> = ours(&file, "uci")
            .lines()
            .map(|l| l.split_whitespace().map(str::to_owned).collect())
            .collect();
        assert_eq!(ours.len(), theirs.len(), "{name}: game count");
        let mut moves = 0;
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            // pgn-extract 19.04 writes UCI promotions in capitals (`c7d8Q`); UCI says `c7d8q`.
            let b: Vec<String> = b.iter().map(|m| m.to_ascii_lowercase()).collect();
            assert_eq!(a, &b, "{name}: game {}", i + 1);
            moves += a.len();
        }
        assert!(moves > 20_000, "{name}: only {moves} moves compared");
    }
}

#[test]
fn long_algebraic_matches_pgn_extract_on_real_games() {
    for name in GAMES {
        let file = fixture(name);
        // pgn-extract marks en passant with `ep`; ccrelay's long form does not.
        let theirs: Vec<Vec<String>> = peer_games(&file, "elalg")
            .into_iter()
            .map(|game| game.into_iter().map(|m| m.replace("ep", "")).collect())
            .collect();
        let json = ours(&file, "json");
        let ours: Vec<Vec<String>> = json
            .lines()
            .map(|line| {
                let game: serde_json::Value =
                    serde_json::from_str(line).expect("one JSON object per line");
                game["moves"]
                    .as_array()
                    .expect("moves")
                    .iter()
                    .map(|m| {
                        let lan = m["lan"].as_str().expect("lan");
                        // pgn-extract's enhanced long algebraic: no `-`, `x` or `=`, castling as the
                        // king's move.
                        if lan.starts_with("O-O") {
                            let suffix = lan.trim_start_matches(['O', '-']);
                            format!("{}{suffix}", m["uci"].as_str().expect("uci"))
                        } else {
                            lan.replace(['-', 'x', '='], "")
                        }
                    })
                    .collect()
            })
            .collect();
        assert_eq!(ours.len(), theirs.len(), "{name}: game count");
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert_eq!(a, b, "{name}: game {}", i + 1);
        }
    }
}
