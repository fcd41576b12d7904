//! Every example of seed 003 (Russian draughts notation) through `ccrelay convert --game
//! draughts-ru`, against expectations worked out by hand (tests/fixtures/draughts/README.md).

use std::fs;
use std::process::Output;

use crate::support::fixtures::fixture;
use crate::support::process::ccrelay;

fn convert(file: &std::path::Path, start: Option<&str>, to: &str) -> Output {
    let mut cmd = ccrelay();
    cmd.args(["convert", "--game", "draughts-ru", "--to", to]);
    if let Some(start) = start {
        cmd.args(["--fen", start]);
    }
    cmd.arg(file).output().expect("run ccrelay")
}

#[test]
fn seed_003_examples() {
    let dir = fixture("draughts/seed003");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("fixture folder")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".txt").map(str::to_owned)
        })
        .collect();
    names.sort();
    assert!(names.len() >= 7, "{names:?}");
    for name in names {
        let read = |ext: &str| fs::read_to_string(dir.join(format!("{name}.{ext}"))).ok();
        let start = read("start");
        let error = read("err");
        for to in ["alg", "num"] {
            let output = convert(&dir.join(format!("{name}.txt")), start.as_deref(), to);
            let expected = read(to).unwrap_or_else(|| panic!("{name}.{to}"));
            assert_eq!(
                String::from_utf8_lossy(&output.stdout),
                expected,
                "{name} --to {to}"
            );
            match &error {
                Some(message) => {
                    assert_eq!(output.status.code(), Some(1), "{name}");
                    assert_eq!(String::from_utf8_lossy(&output.stderr), *message, "{name}");
                }
                None => assert!(
                    output.status.success(),
                    "{name}: {}",
                    String::from_utf8_lossy(&output.stderr)
                ),
            }
        }
    }
}

#[test]
fn convert_exit_statuses() {
    let run = |args: &[&str], stdin: &str| {
        use std::io::Write;
        let mut child = ccrelay()
            .args(["convert", "--game", "draughts-ru"])
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run ccrelay");
        // A refused argument ends ccrelay before it reads: a closed pipe is expected then.
        let _ = child
            .stdin
            .take()
            .expect("stdin")
            .write_all(stdin.as_bytes());
        child.wait_with_output().expect("ccrelay finishes")
    };
    let ok = run(&["--to", "num"], "1. c3-d4 f6-e5\n\n1. a3-b4 *\n");
    assert_eq!(ok.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&ok.stdout),
        "1. 22-18 11-15\n\n1. 21-17 *\n"
    );
    let failed = run(&["--to", "alg"], "1. 22-18 11-15\n\n1. c3-e5 *\n");
    assert_eq!(failed.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&failed.stdout),
        "1. c3-d4 f6-e5\n\n*\n"
    );
    for (args, message) in [
        (&["--to", "san"][..], "unknown draughts format"),
        (&["--lang", "ru"][..], "--lang applies to chess"),
        (&["--fen", "W:W99:B1"][..], "bad --fen"),
    ] {
        let out = run(args, "1. c3-d4\n");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
    }
}
