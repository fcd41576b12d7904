//! Power cuts: the daemon's data directory on a filesystem that forgets what was not synced
//! ([`layer`]), cut at seeded moments while players play ([`play`]). kill -9 proves the process
//! may die anywhere; this proves the disk holds what ccrelay said it had.

mod disk;
pub mod layer;
mod mail;
mod peer;
mod play;
mod regressions;

use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;

use layer::Layer;

/// The first move of `owed` not pushed yet, by the pushes `seen` (id -> text): a move is
/// `(prefix, part)`, pushed as a text starting with `prefix` and holding `part`. A move is
/// pushed after its commit, so the last may be on its way and is waited for by the caller; one
/// pushed twice fails at once.
fn first_unpushed(
    seen: &std::collections::BTreeMap<i64, String>,
    owed: &[(String, String)],
) -> Option<String> {
    let mut unpushed = None;
    for (prefix, part) in owed {
        let ids: Vec<i64> = seen
            .iter()
            .filter(|(_, text)| text.starts_with(prefix.as_str()) && text.contains(part.as_str()))
            .map(|(id, _)| *id)
            .collect();
        assert!(ids.len() <= 1, "{prefix}{part}: pushed as {ids:?}");
        if ids.is_empty() {
            unpushed.get_or_insert(format!("{prefix}{part}"));
        }
    }
    unpushed
}

fn write(path: &std::path::Path, bytes: &[u8], sync: bool) {
    let mut f = std::fs::File::create(path).expect("create");
    f.write_all(bytes).expect("write");
    if sync {
        f.sync_all().expect("fsync");
    }
}

fn sync_dir(path: &std::path::Path) {
    std::fs::File::open(path)
        .expect("open folder")
        .sync_all()
        .expect("fsync folder");
}

fn read(path: &std::path::Path) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}

#[test]
fn the_power_cut_layer_keeps_what_was_synced_and_forgets_the_rest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut layer = Layer::mount(dir.path());
    let root = dir.path();
    // Synced file and synced name: kept. Synced file, unsynced name: gone.
    write(&root.join("kept"), b"kept", true);
    std::fs::create_dir(root.join("sub")).expect("mkdir");
    sync_dir(root);
    write(&root.join("sub/nameless"), b"nameless", true);
    // A name synced, its bytes not: there, empty. Bytes rewritten unsynced: the old ones.
    write(&root.join("empty"), b"never synced", false);
    write(&root.join("old"), b"first", true);
    sync_dir(root);
    write(&root.join("old"), b"second, not synced", false);
    // A rename within one folder, not synced: the old name; synced: the new one.
    write(&root.join("a.tmp"), b"a", true);
    write(&root.join("b.tmp"), b"b", true);
    sync_dir(root);
    std::fs::rename(root.join("a.tmp"), root.join("a")).expect("rename");
    std::fs::rename(root.join("b.tmp"), root.join("b")).expect("rename");
    // b's rename is made durable by syncing the folder; a's is undone before, redone after.
    std::fs::rename(root.join("a"), root.join("a.tmp")).expect("rename back");
    sync_dir(root);
    std::fs::rename(root.join("a.tmp"), root.join("a")).expect("rename");
    // An unlink not synced comes back, with the bytes of the file the disk holds.
    std::fs::remove_file(root.join("kept")).expect("unlink");
    write(&root.join("kept"), b"again", true);
    std::fs::remove_file(root.join("kept")).expect("unlink");
    assert_eq!(read(&root.join("kept")), None);
    assert_eq!(
        read(&root.join("old")).as_deref(),
        Some(&b"second, not synced"[..])
    );

    layer.cut();
    // Dead: nothing is read or written.
    let err = std::fs::write(root.join("after"), b"x").expect_err("write after the cut");
    assert_eq!(err.raw_os_error(), Some(5), "{err}");
    layer.power_on();

    assert_eq!(read(&root.join("kept")).as_deref(), Some(&b"kept"[..]));
    assert_eq!(read(&root.join("sub/nameless")), None);
    assert!(root.join("sub").is_dir());
    assert_eq!(read(&root.join("empty")).as_deref(), Some(&b""[..]));
    assert_eq!(read(&root.join("old")).as_deref(), Some(&b"first"[..]));
    assert_eq!(read(&root.join("a.tmp")).as_deref(), Some(&b"a"[..]));
    assert_eq!(read(&root.join("a")), None);
    assert_eq!(read(&root.join("b")).as_deref(), Some(&b"b"[..]));
    assert_eq!(read(&root.join("b.tmp")), None);
    assert_eq!(read(&root.join("after")), None);
}

#[test]
fn the_power_cut_layer_cuts_at_the_armed_change_and_refuses_everything_after() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut layer = Layer::mount(dir.path());
    let path = dir.path().join("f");
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .mode(0o600)
        .open(&path)
        .expect("create");
    sync_dir(dir.path());
    // The third change from here fails, and so does every one after it.
    layer.arm(3);
    f.write_all(b"one").expect("first change");
    f.sync_all().expect("second change");
    let err = f.write_all(b"two").expect_err("the third change");
    assert_eq!(err.raw_os_error(), Some(5), "{err}");
    assert!(layer.wait_cut(std::time::Duration::ZERO));
    assert!(f.sync_all().is_err());
    drop(f);
    layer.power_on();
    assert_eq!(read(&path).as_deref(), Some(&b"one"[..]));
    // Alive again.
    write(&path, b"three", true);
    assert_eq!(read(&path).as_deref(), Some(&b"three"[..]));
}
