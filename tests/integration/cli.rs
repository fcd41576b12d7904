//! `ccrelay convert` as a user runs it: formats, many games, exit codes, and inputs that must
//! get a clear message and bounded memory rather than a panic.

use std::io::{Read, Write};
use std::process::{Output, Stdio};

use crate::support::fixtures::fixture;
use crate::support::process::ccrelay;

/// `ccrelay convert ARGS` with every standard stream piped.
fn spawn_convert(args: &[&str]) -> std::process::Child {
    ccrelay()
        .arg("convert")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn ccrelay")
}

fn convert_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = spawn_convert(args);
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The child may stop reading early; a broken pipe here is not the test's business.
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("wait for ccrelay");
    writer.join().expect("writer thread");
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const PGN: &str = "\u{feff}[Event \"Krasnoyarsk - Petersburg\"]\r\n\
[Site \"by telegraph\"]\r\n\
[White \"Krasnoyarsk\"]\r\n\
[Black \"Petersburg\"]\r\n\
[Result \"*\"]\r\n\
\r\n\
% an escaped line, skipped\r\n\
1. e4 {a comment (with parentheses)} e5 2. Nf3 (2. f4 exf4 (2... d5)) 2... Nc6 $1 ; to the end of the line\r\n\
3. Bb5 a6 *\r\n\
\r\n\
[Event \"second\"]\r\n\
[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\r\n\
[SetUp \"1\"]\r\n\
\r\n\
1. e4 Kd7 2. e5 Ke6 1-0\r\n";

#[test]
fn uci_prints_one_line_per_game_in_input_order_and_nothing_else() {
    let output = convert_stdin(&["--to", "uci"], PGN.as_bytes());
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6\ne2e4 e8d7 e4e5 d7e6\n"
    );
    assert_eq!(text(&output.stderr), "");
}

#[test]
fn numbered_formats_print_a_paragraph_per_game() {
    let iccf = convert_stdin(&["--to", "iccf"], PGN.as_bytes());
    assert_eq!(
        text(&iccf.stdout),
        "1. 5254 5755 2. 7163 2836 3. 6125 1716 *\n\n1. 5254 5847 2. 5455 4756 1-0\n"
    );
    let san = convert_stdin(&["--to", "san", "--lang", "de"], PGN.as_bytes());
    assert_eq!(
        text(&san.stdout),
        "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 *\n\n1. e4 Kd7 2. e5 Ke6 1-0\n"
    );
    let lan = convert_stdin(&["--to", "lan", "--lang", "ru"], PGN.as_bytes());
    assert_eq!(
        text(&lan.stdout),
        "1. e2—e4 e7—e5 2. Кg1—f3 Кb8—c6 3. Сf1—b5 a7—a6 *\n\n1. e2—e4 Крe8—d7 2. e4—e5 Крd7—e6 1-0\n"
    );
    let figurine = convert_stdin(
        &["--to", "san", "--lang", "figurine"],
        b"1. e4 e5 2. Nf3 Nc6 3. Bb5",
    );
    assert_eq!(text(&figurine.stdout), "1. e4 e5 2. ♘f3 ♘c6 3. ♗b5\n");
}

#[test]
fn pgn_keeps_tags_and_writes_the_seven_tag_roster() {
    let output = convert_stdin(&["--to", "pgn", "--lang", "ru"], PGN.as_bytes());
    assert!(output.status.success());
    let out = text(&output.stdout);
    assert!(out.starts_with(
        "[Event \"Krasnoyarsk - Petersburg\"]\n[Site \"by telegraph\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
         [White \"Krasnoyarsk\"]\n[Black \"Petersburg\"]\n[Result \"*\"]\n\n1. e4 e5 2. Кf3 Кc6 3. Сb5 a6 *\n"
    ), "{out}");
    assert!(out.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Крd7 2. e5 Крe6 1-0\n"), "{out}");
}

#[test]
fn json_has_every_move_in_every_notation() {
    let output = convert_stdin(&["--to", "json"], "1. 5254 5755 2. Кg1—f3 (=)".as_bytes());
    let line = text(&output.stdout);
    let game: serde_json::Value = serde_json::from_str(line.trim()).expect("one JSON object");
    let third = &game["moves"][2];
    assert_eq!(third["written"], "Кg1—f3");
    assert_eq!(third["iccf"], "7163");
    assert_eq!(third["uci"], "g1f3");
    assert_eq!(third["san"], "Nf3");
    assert_eq!(third["lan"], "Ng1-f3");
    assert_eq!(third["figurine"], "♘f3");
    assert_eq!(third["draw_offer"], true);
    assert_eq!(game["moves"][0]["side"], "white");
    assert_eq!(game["moves"][1]["side"], "black");
}

#[test]
fn fen_option_sets_the_start_position() {
    let output = convert_stdin(
        &["--to", "uci", "--fen", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"],
        b"1... Kd7 2. e4",
    );
    assert_eq!(
        text(&output.stdout),
        "e8d7 e2e4\n",
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn exit_status_says_whether_every_game_converted() {
    let good = convert_stdin(&["--to", "uci"], b"1. e4 e5");
    assert_eq!(good.status.code(), Some(0));
    let bad = convert_stdin(&["--to", "uci"], b"1. e4 e5\n\n1. e4 e4\n\n1. d4");
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(text(&bad.stdout), "e2e4 e7e5\ne2e4\nd2d4\n");
    assert!(
        text(&bad.stderr).contains("game 2 (line 3), move 1 (Black) \"e4\": no such move here")
    );
}

#[test]
fn usage_errors_exit_2_with_a_message() {
    for (args, says) in [
        (vec!["--to", "morse"], "unknown format"),
        (vec!["--lang", "xx"], "unknown language"),
        (vec!["--fen", "not a fen"], "--fen"),
        (vec!["/no/such/file.pgn"], "cannot read /no/such/file.pgn"),
    ] {
        let output = convert_stdin(&args, b"");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            text(&output.stderr).contains(says),
            "{args:?}: {}",
            text(&output.stderr)
        );
    }
}

#[test]
fn file_argument_and_dash_read_the_same() {
    let file = fixture("seeds/004-numeric.txt");
    let from_file = ccrelay()
        .args(["convert", "--to", "uci"])
        .arg(&file)
        .output()
        .expect("run");
    let bytes = std::fs::read(&file).expect("fixture");
    let from_stdin = convert_stdin(&["--to", "uci", "-"], &bytes);
    assert_eq!(from_file.stdout, from_stdin.stdout);
    assert_eq!(
        text(&from_file.stdout),
        "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f6e4 d2d4 b7b5 a4b3 d7d5\n"
    );
}

#[test]
fn an_empty_input_says_so() {
    let output = convert_stdin(&["--to", "uci"], b"");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(&output.stdout), "");
    assert!(
        text(&output.stderr).contains("no games"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn binary_garbage_gets_a_message_not_a_panic() {
    let mut garbage = Vec::new();
    let mut state: u32 = 0x1234_5678;
    for _ in 0..200_000 {
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        garbage.push((state >> 24) as u8);
    }
    let output = convert_stdin(&["--to", "uci"], &garbage);
    assert_eq!(output.status.code(), Some(1));
    let err = text(&output.stderr);
    assert!(err.contains("not a move"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(text(&output.stdout).lines().count(), err.lines().count());
}

/// Peak resident memory of a running process, from /proc.
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

#[test]
fn a_100_mb_line_is_refused_in_bounded_memory() {
    let mut child = spawn_convert(&["--to", "uci"]);
    let mut stdin = child.stdin.take().expect("stdin");
    // One line: a few good moves, then 100 MB without a single space.
    stdin.write_all(b"1. e4 e5 2. ").expect("write");
    let chunk = vec![b'N'; 1 << 20];
    for _ in 0..100 {
        stdin.write_all(&chunk).expect("write");
    }
    stdin.flush().expect("flush");
    // Everything has been read by now except what the pipe holds; the peak so far is the
    // reader's working set.
    let peak = peak_rss_kib(child.id());
    drop(stdin);
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("read stdout");
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read stderr");
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(1), "{err}");
    assert_eq!(out, "e2e4 e7e5\n");
    assert!(
        err.contains("move 2 (White): not a move: longer than 64 bytes"),
        "{err}"
    );
    assert!(peak < 20 * 1024, "peak memory {peak} KiB for a 100 MB line");
}
