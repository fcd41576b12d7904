//! Every saved fuzzing input replayed through its harness, without AFL: the corpus of
//! `fuzz/corpus/TARGET/` (seeds, inputs the fuzzer found new paths with, and every input that
//! once crashed, so each crash found stays a regression test). The harnesses are the fuzz
//! crate's own (`fuzz/src/targets/`), included as they are.

use std::path::{Path, PathBuf};

#[allow(dead_code)]
#[path = "../../fuzz/src/targets/mod.rs"]
mod targets;

fn corpus(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target)
}

/// The files of a target's corpus, sorted; a target with no corpus fails the test.
fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = corpus(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: no corpus", dir.display());
    files
}

/// Runs one target's whole corpus; a panic names the file.
fn replay(target: &str) {
    let harness = targets::harness(target).expect("a known target");
    let files = inputs(target);
    for file in &files {
        let data = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        if std::panic::catch_unwind(|| harness(&data)).is_err() {
            panic!("{target}: {} fails its harness", file.display());
        }
    }
}

#[test]
fn every_target_has_a_corpus_folder_and_nothing_else_is_there() {
    let names: Vec<&str> = targets::TARGETS.iter().map(|(n, _)| *n).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut found: Vec<String> = std::fs::read_dir(&root)
        .expect("fuzz/corpus")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    let mut expected: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
    expected.sort();
    assert_eq!(found, expected);
    for name in names {
        let bin = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("fuzz/src/bin/{name}.rs"));
        assert!(bin.is_file(), "{} is missing", bin.display());
    }
}

macro_rules! replay_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                replay(stringify!($name));
            }
        )*
    };
}

replay_tests!(
    movetext,
    move_token,
    command,
    mail,
    link_stream,
    link_message,
    config,
    xfcc,
    draughts_move,
    draughts_text,
);
