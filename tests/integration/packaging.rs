//! The Debian package's generated files: the manual pages and shell completions kept in
//! packaging/ (which `cargo deb` packs) must be what the current command line generates.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::process::ccrelay;

/// Every file in `dir`, by name.
fn files(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let e = e.expect("entry");
            let text = std::fs::read_to_string(e.path()).expect("text");
            (e.file_name().to_string_lossy().into_owned(), text)
        })
        .collect()
}

#[test]
fn man_pages_and_completions_in_packaging_are_current() {
    let packaging = Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging");
    for what in ["man", "completions"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let out = ccrelay()
            .args(["generate", what])
            .arg(dir.path())
            .output()
            .expect("ccrelay generate");
        assert!(out.status.success(), "{out:?}");
        let fresh = files(dir.path());
        assert!(fresh.len() >= 3, "{what}: {:?}", fresh.keys());
        assert_eq!(
            files(&packaging.join(what)),
            fresh,
            "packaging/{what} is stale: run `cargo run -- generate {what} packaging/{what}`"
        );
    }
}
