//! Russian draughts against two independent Python libraries: pydraughts (variant "russian")
//! and py-draughts (RussianBoard), run through tests/draughts/peer.py. `.ci/run` installs both
//! (each in its own folder: they import under the same name); without them these tests fail,
//! they never skip.
//!
//! - perft counts from the initial position and from positions with kings;
//! - whole random games made by each library, read by `ccrelay convert` move by move, with the
//!   pieces each move takes compared;
//! - random games made by ccrelay, replayed by both libraries, and ccrelay's PDN read by
//!   py-draughts' own PDN reader.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use ccrelay::draughts::notation::{Form, write_path};
use ccrelay::draughts::{Game, Move, Outcome, Position, all_moves, legal_moves, movegen, setup};

use crate::support::process::ccrelay;

const LIBS: [&str; 2] = ["pydraughts", "py-draughts"];

fn peer_script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/draughts/peer.py")
}

/// Runs `peer.py LIB args...` with `stdin`, and returns its standard output.
fn peer(lib: &str, args: &[&str], stdin: &str) -> String {
    let mut child = Command::new("python3")
        .arg(peer_script())
        .arg(lib)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs (the peers need it)");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write to the peer");
    let output = child.wait_with_output().expect("the peer finishes");
    assert!(
        output.status.success(),
        "{lib} {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

/// Positions for perft: the start, kings, a king's windmill (the same four pieces taken in two
/// orders), men crowned mid-capture, long captures.
const PERFT: [(&str, u32, u32); 6] = [
    (
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        7,
        4,
    ),
    ("W:WK31,29:B26,18,19,27,1,5", 5, 4),
    ("W:WK31,K13,21,22:BK1,K10,7,12", 4, 3),
    ("B:WK18,25,26,28,32:BK14,K5,9,11,4", 5, 4),
    ("W:W9,10,11,22,23:B5,6,7,14,15,19,26", 5, 4),
    ("B:WK32,K1,17,18,19:BK28,13,14,6,7", 4, 3),
];

#[test]
fn perft_matches_both_libraries() {
    for (fen, deep, shallow) in PERFT {
        let pos = setup::parse_fen(fen).expect("test FEN");
        let ours: Vec<u64> = (1..=deep).map(|d| movegen::perft(&pos, d)).collect();
        let ours_paths: Vec<u64> = (1..=shallow)
            .map(|d| movegen::perft_paths(&pos, d))
            .collect();
        // py-draughts counts each effect once, as ccrelay's perft does.
        let theirs: Vec<u64> =
            serde_json::from_str(&peer("py-draughts", &["perft", fen, &deep.to_string()], ""))
                .expect("JSON");
        assert_eq!(ours, theirs, "py-draughts perft from {fen}");
        // pydraughts counts every capture path, even two that take the same pieces.
        let theirs: Vec<u64> = serde_json::from_str(&peer(
            "pydraughts",
            &["perft", fen, &shallow.to_string()],
            "",
        ))
        .expect("JSON");
        assert_eq!(ours_paths, theirs, "pydraughts perft (paths) from {fen}");
    }
}

/// A move as `from-to [taken]`: what two paths with the same effect share.
fn effect(path: &[String], taken: &[String]) -> String {
    let mut taken = taken.to_vec();
    taken.sort();
    format!(
        "{}-{} [{}]",
        path.first().map_or("", String::as_str),
        path.last().map_or("", String::as_str),
        taken.join(",")
    )
}

fn strings(value: &serde_json::Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|s| s.as_str().expect("a string").to_owned())
        .collect()
}

#[test]
fn legal_moves_match_both_libraries_move_for_move() {
    for (fen, _, _) in PERFT {
        let pos = setup::parse_fen(fen).expect("test FEN");
        let ours: Vec<(Vec<String>, Vec<String>)> = all_moves(&pos)
            .iter()
            .map(|m| {
                let path = std::iter::once(m.from())
                    .chain(m.landings().iter().copied())
                    .map(|s| s.to_string())
                    .collect();
                let taken = ccrelay::draughts::board::squares_of(m.captured())
                    .map(|s| s.to_string())
                    .collect();
                (path, taken)
            })
            .collect();
        let mut our_paths: Vec<String> = ours.iter().map(|(p, _)| p.join(" ")).collect();
        our_paths.sort();
        let mut our_effects: Vec<String> = legal_moves(&pos)
            .iter()
            .map(|m| {
                let path = [m.from().to_string(), m.to().to_string()];
                let taken: Vec<String> = ccrelay::draughts::board::squares_of(m.captured())
                    .map(|s| s.to_string())
                    .collect();
                effect(&path, &taken)
            })
            .collect();
        our_effects.sort();
        for lib in LIBS {
            let theirs = json_lines(&peer(lib, &["moves", fen], ""));
            if lib == "pydraughts" {
                // Every path, the windmill's two orders included.
                let mut paths: Vec<String> = theirs
                    .iter()
                    .map(|m| strings(&m["path"]).join(" "))
                    .collect();
                paths.sort();
                assert_eq!(our_paths, paths, "{lib} from {fen}");
            } else {
                // One path per effect, not always the one ccrelay keeps.
                let mut effects: Vec<String> = theirs
                    .iter()
                    .map(|m| effect(&strings(&m["path"]), &strings(&m["taken"])))
                    .collect();
                effects.sort();
                assert_eq!(our_effects, effects, "{lib} from {fen}");
            }
        }
    }
}

/// Writes a game's paths as numbered algebraic movetext, every landing square written.
fn movetext(paths: &[Vec<String>], taken: &[bool]) -> String {
    let mut text = String::new();
    for (i, (path, capture)) in paths.iter().zip(taken).enumerate() {
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(&path.join(if *capture { ":" } else { "-" }));
        text.push(' ');
    }
    text
}

#[test]
fn random_games_of_both_libraries_read_by_ccrelay() {
    let mut notes = Vec::new();
    for lib in LIBS {
        let games = json_lines(&peer(lib, &["random", "14", "40", "400"], ""));
        assert_eq!(games.len(), 40);
        let mut plies_read = 0;
        for (g, game) in games.iter().enumerate() {
            let moves = game["moves"].as_array().expect("moves");
            let paths: Vec<Vec<String>> = moves
                .iter()
                .map(|m| {
                    m["path"]
                        .as_array()
                        .expect("path")
                        .iter()
                        .map(|s| s.as_str().expect("square").to_owned())
                        .collect()
                })
                .collect();
            let taken: Vec<Vec<String>> = moves
                .iter()
                .map(|m| {
                    m["taken"]
                        .as_array()
                        .expect("taken")
                        .iter()
                        .map(|s| s.as_str().expect("square").to_owned())
                        .collect()
                })
                .collect();
            let captures: Vec<bool> = taken.iter().map(|t| !t.is_empty()).collect();
            let text = movetext(&paths, &captures);
            let output = ccrelay()
                .args(["convert", "--game", "draughts-ru", "--to", "json"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .and_then(|mut child| {
                    child
                        .stdin
                        .take()
                        .expect("stdin")
                        .write_all(text.as_bytes())?;
                    child.wait_with_output()
                })
                .expect("run ccrelay");
            assert!(
                output.status.success(),
                "{lib} game {g}: {}\n{text}",
                String::from_utf8_lossy(&output.stderr)
            );
            let ours: serde_json::Value =
                serde_json::from_slice(&output.stdout).expect("one JSON game");
            let our_moves = ours["moves"].as_array().expect("moves");
            assert_eq!(our_moves.len(), moves.len(), "{lib} game {g}");
            for (ply, (ours, theirs)) in our_moves.iter().zip(&taken).enumerate() {
                let mut our_taken: Vec<String> = ours["captures"]
                    .as_array()
                    .expect("captures")
                    .iter()
                    .map(|s| s.as_str().expect("square").to_owned())
                    .collect();
                our_taken.sort();
                assert_eq!(&our_taken, theirs, "{lib} game {g} ply {}", ply + 1);
            }
            plies_read += moves.len();
            // pydraughts' own PDN of the game, read by ccrelay: the same moves.
            if let Some(pdn) = game["pdn"].as_str() {
                let output = ccrelay()
                    .args(["convert", "--game", "draughts-ru", "--to", "alg"])
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .and_then(|mut child| {
                        child
                            .stdin
                            .take()
                            .expect("stdin")
                            .write_all(pdn.as_bytes())?;
                        child.wait_with_output()
                    })
                    .expect("run ccrelay");
                assert!(
                    output.status.success(),
                    "pydraughts' PDN of game {g}: {}\n{pdn}",
                    String::from_utf8_lossy(&output.stderr)
                );
                let ours_from_pdn = String::from_utf8_lossy(&output.stdout);
                let words = ours_from_pdn
                    .split_whitespace()
                    .filter(|w| !w.ends_with('.') && !matches!(*w, "1-0" | "0-1" | "1/2-1/2" | "*"))
                    .count();
                assert_eq!(words, moves.len(), "pydraughts' PDN of game {g}");
            }
            // The result: a side without a move loses by both; draws are the libraries' own.
            let mut replay = Game::new(Position::default());
            let mut pos = Position::default();
            for (path, capture) in paths.iter().zip(&captures) {
                let token = path.join(if *capture { ":" } else { "-" });
                let m = ccrelay::draughts::notation::read(&pos, &token).expect("read above");
                replay.play(m);
                pos = *replay.position();
            }
            let result = game["result"].as_str();
            match (result, replay.outcome()) {
                (Some("1-0"), Some(o)) | (Some("0-1"), Some(o)) if matches!(o, Outcome::Win(_)) => {
                    assert_eq!(Some(o.result()), result, "{lib} game {g}");
                }
                (Some(r), ours) => notes.push(format!("{lib} game {g}: {r}, ccrelay {ours:?}")),
                (None, _) => {}
            }
        }
        assert!(plies_read > 40 * 20, "{lib}: {plies_read} half-moves");
    }
    for note in notes {
        println!("{note}");
    }
}

/// A small deterministic generator (xorshift), for games without a dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn ccrelay_games_read_by_both_libraries() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut lines = String::new();
    let mut movetexts = String::new();
    for _ in 0..30 {
        let mut game = Game::new(Position::default());
        let mut paths = Vec::new();
        let mut text = Vec::new();
        while game.outcome().is_none() && paths.len() < 300 {
            let moves = all_moves(game.position());
            let m = moves[rng.below(moves.len())];
            let path: Vec<String> = std::iter::once(m.from())
                .chain(m.landings().iter().copied())
                .map(|s| s.to_string())
                .collect();
            paths.push(path);
            text.push(write_path(&m, Form::Algebraic));
            game.play(m);
        }
        lines.push_str(&serde_json::json!({ "moves": paths }).to_string());
        lines.push('\n');
        let numbered: Vec<String> = text
            .iter()
            .enumerate()
            .map(|(i, t)| {
                if i % 2 == 0 {
                    format!("{}. {t}", i / 2 + 1)
                } else {
                    t.clone()
                }
            })
            .collect();
        movetexts.push_str(&numbered.join(" "));
        movetexts.push_str(" *\n\n");
    }
    for lib in LIBS {
        for (g, r) in json_lines(&peer(lib, &["replay"], &lines))
            .iter()
            .enumerate()
        {
            assert!(r["error"].is_null(), "{lib} game {g}: {}", r["error"]);
        }
    }
    // ccrelay's PDN, read by py-draughts' own PDN reader: same length, same last position.
    let output = ccrelay()
        .args(["convert", "--game", "draughts-ru", "--to", "pdn"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(movetexts.as_bytes())?;
            child.wait_with_output()
        })
        .expect("run ccrelay");
    assert!(output.status.success());
    let pdn = String::from_utf8(output.stdout).expect("UTF-8");
    let read = json_lines(&peer("py-draughts", &["pdn"], &pdn));
    assert_eq!(read.len(), 30, "games read by py-draughts");
    for (g, (r, line)) in read.iter().zip(lines.lines()).enumerate() {
        assert!(r["error"].is_null(), "game {g}: {}", r["error"]);
        let plies = serde_json::from_str::<serde_json::Value>(line).expect("JSON")["moves"]
            .as_array()
            .expect("moves")
            .len();
        assert_eq!(r["plies"].as_u64(), Some(plies as u64), "game {g}");
    }
}

/// Quiet king (or, when `pick` says so, man) moves to new positions where neither side can
/// capture: endings that run into the draw limits instead of ending in a capture.
fn walk(start: &str, plies: usize, pick: impl Fn(&Game, &Move) -> bool) -> Game {
    let mut game = Game::new(setup::parse_fen(start).expect("test FEN"));
    let mut seen = std::collections::HashSet::new();
    seen.insert(*game.position());
    for _ in 0..plies {
        let p = *game.position();
        let capture_for = |pos: Position| {
            let mut other = pos;
            other.set_turn(pos.turn().other());
            movegen::has_capture(&pos) || movegen::has_capture(&other)
        };
        let Some(m) = legal_moves(&p).into_iter().find(|m| {
            let next = ccrelay::draughts::apply(&p, m);
            !m.is_capture()
                && !m.crowns()
                && !seen.contains(&next)
                && !capture_for(next)
                && pick(&game, m)
        }) else {
            break;
        };
        seen.insert(ccrelay::draughts::apply(&p, &m));
        game.play(m);
    }
    game
}

/// The first half-move after which the game is drawn: by ccrelay, and by each library.
fn first_draws(game: &Game) -> (Option<(usize, String)>, Vec<Option<usize>>) {
    let mut replay = Game::new(*game.start());
    let mut ours = None;
    let mut paths = Vec::new();
    for (ply, m) in game.moves().iter().enumerate() {
        replay.play(*m);
        paths.push(
            std::iter::once(m.from())
                .chain(m.landings().iter().copied())
                .map(|s| s.to_string())
                .collect::<Vec<_>>(),
        );
        if ours.is_none()
            && let Some(Outcome::Draw(reason)) = replay.outcome()
        {
            ours = Some((ply + 1, reason.to_string()));
        }
    }
    let line = serde_json::json!({ "start": setup::write_fen(game.start()), "moves": paths });
    let theirs = LIBS
        .iter()
        .map(|lib| {
            let results: Vec<Option<String>> =
                serde_json::from_str(&peer(lib, &["outcomes"], &format!("{line}\n")))
                    .expect("JSON");
            assert!(
                !results.iter().any(|r| r.as_deref() == Some("illegal")),
                "{lib} refused a move of {line}"
            );
            results
                .iter()
                .position(|r| r.as_deref() == Some("1/2-1/2"))
                .map(|i| i + 1)
        })
        .collect();
    (ours, theirs)
}

#[test]
fn draw_limits_against_both_libraries() {
    let any = |_: &Game, _: &Move| true;
    let is_king = |g: &Game, m: &Move| {
        g.position()
            .piece_at(m.from())
            .is_some_and(|p| p.kind == ccrelay::draughts::Kind::King)
    };
    let white = |g: &Game| g.position().turn() == ccrelay::draughts::Color::White;
    let cases: Vec<(&str, Game)> = vec![
        (
            "kings only, 2 against 2",
            walk("W:WK29,K30:BK4,K3", 40, any),
        ),
        (
            "3 kings against 1, off the main road",
            walk("W:WK1,K2,K3:BK13", 40, |g, m| {
                white(g) || !m.to().on_main_road()
            }),
        ),
        (
            "3 kings against 1 on the main road",
            walk("W:WK1,K2,K3:BK29", 40, |g, m| {
                white(g) || m.to().on_main_road()
            }),
        ),
        (
            "5 pieces, kings on both sides, men moving now and then",
            walk("W:WK28,29,30:BK1,12", 130, move |g, m| {
                let want_man = g.moves().len() % 20 == 10 && white(g);
                is_king(g, m) != want_man
            }),
        ),
        ("threefold repetition", {
            let mut game = Game::new(setup::parse_fen("W:WK29,22:BK4,11").expect("FEN"));
            for token in ["a1-b2", "h8-g7", "b2-a1", "g7-h8"].repeat(3) {
                let m = ccrelay::draughts::notation::read(game.position(), token).expect("legal");
                game.play(m);
            }
            game
        }),
    ];
    let mut table = Vec::new();
    for (name, game) in &cases {
        let (ours, theirs) = first_draws(game);
        table.push(format!(
            "{name} ({} half-moves from {}): ccrelay {ours:?}, pydraughts {:?}, py-draughts {:?}",
            game.moves().len(),
            setup::write_fen(game.start()),
            theirs[0],
            theirs[1]
        ));
    }
    for row in &table {
        println!("{row}");
    }
    // docs/draughts.md explains each difference and who is right by the rules:
    // - 15 moves of kings only: all three draw after the 30th half-move;
    // - 3 kings against 1: the rule counts the stronger side's 15 moves from when the balance
    //   arose, the 29th half-move when it moves first; both libraries count 30 half-moves;
    // - the main road: the stronger side's 5th move (the 9th half-move); pydraughts counts 10
    //   half-moves, py-draughts has no such limit (its 15-move rules end it at 30);
    // - 4- and 5-piece endings: 30 moves; pydraughts reads "4 or 5 pieces a side", py-draughts
    //   has no such limit;
    // - threefold repetition: all three at the third occurrence.
    let expected = [
        (Some(30), [Some(30), Some(30)]),
        (Some(29), [Some(30), Some(30)]),
        (Some(9), [Some(10), Some(30)]),
        (Some(60), [None, None]),
        (Some(8), [Some(8), Some(8)]),
    ];
    for (i, (ours, theirs)) in expected.into_iter().enumerate() {
        let (our_draw, their_draws) = first_draws(&cases[i].1);
        assert_eq!(our_draw.map(|(ply, _)| ply), ours, "{}", table[i]);
        assert_eq!(their_draws, theirs, "{}", table[i]);
    }
}
