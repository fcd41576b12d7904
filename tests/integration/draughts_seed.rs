//! Every example of seed 003 (Russian draughts notation) through `ccrelay convert --game
//! draughts-ru`, against expectations worked out by hand (tests/fixtures/draughts/README.md).

use std::fs;
use std::process::Output;

use crate::support::{ccrelay, fixture};

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
