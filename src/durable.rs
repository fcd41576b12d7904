//! Making a change of names on disk survive a power cut, not just a crash.
//!
//! Syncing a file puts its bytes on the disk, not its name: a file created, renamed or removed
//! is in its folder's own data, which reaches the disk only when the folder is synced. Until
//! then a power cut can undo the change even though every byte of the file was synced (the
//! kernel keeps a killed process's writes; a cut machine keeps nothing it did not sync). So
//! every place that makes a name that must last (the data directory, the signing key, a dead
//! letter, a spooled reply) does it through here. `tests/integration/powercut/` proves it
//! with a filesystem that forgets everything not synced.

use std::io::Write;
use std::path::Path;

/// Syncs the folder `dir`: the names in it (created, renamed, removed) are on the disk after.
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    std::fs::File::open(dir)?.sync_all()
}

/// Syncs the folder holding `path` (after `path` was created, renamed into place or removed).
pub fn sync_parent(path: &Path) -> std::io::Result<()> {
    sync_dir(path.parent().unwrap_or(Path::new(".")))
}

/// `std::fs::create_dir_all`, made durable: each folder it makes is synced into its parent,
/// so a power cut cannot take away a folder whose files were synced.
pub fn create_dir_all(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent()
        && !parent.as_os_str().is_empty()
    {
        create_dir_all(parent)?;
    }
    match std::fs::create_dir(dir) {
        Ok(()) => sync_parent(dir),
        // Made meanwhile by someone else: theirs to sync, but sync it anyway (cheap, rare).
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && dir.is_dir() => sync_parent(dir),
        Err(e) => Err(e),
    }
}

/// Renames `from` to `to` and syncs the folders of both, so the new name survives a cut.
pub fn rename(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::rename(from, to)?;
    sync_parent(to)?;
    if from.parent() != to.parent() {
        sync_parent(from)?;
    }
    Ok(())
}

/// Writes `bytes` to `path` in place of what was there: through a temporary file beside it,
/// synced, renamed over `path`, and the folder synced. A crash or a cut leaves the old file or
/// the new one, whole.
pub fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    let tmp = path.with_file_name(name);
    let mut file = std::fs::File::create(&tmp)?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn create_dir_all_makes_every_missing_folder_and_leaves_existing_ones() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b/c");
        create_dir_all(&deep).unwrap();
        assert!(deep.is_dir());
        create_dir_all(&deep).unwrap();
        std::fs::write(dir.path().join("file"), b"x").unwrap();
        assert!(create_dir_all(&dir.path().join("file/under")).is_err());
    }

    #[test]
    fn replace_leaves_the_new_bytes_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("signing.pub");
        replace(&path, b"old\n").unwrap();
        replace(&path, b"new\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new\n");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
