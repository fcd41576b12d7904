//! The data directory kept private: it holds private games, players' messages, the signing
//! key and mail waiting to go, so nobody but the daemon's user may read it, whatever the
//! umask the daemon was started under (systemd sets one; a shell usually leaves 022).
//!
//! At start the daemon sets its umask to 077, so every file it makes from then on (the
//! journal, SQLite's `-wal` and `-shm`, keys, the reply spool, dead letters) is 0600 and every
//! folder 0700; and it makes the data directory 0700 and brings what is already in it (from
//! an older version, or made by hand) to 0600 for files and 0700 for folders. Symbolic links
//! are left as they are (their targets are not ccrelay's to change).

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// The mode of a file under the data directory.
pub const FILE_MODE: u32 = 0o600;
/// The mode of the data directory and every folder in it.
pub const DIR_MODE: u32 = 0o700;
/// How deep folders under the data directory are followed (the deepest ccrelay makes is two:
/// `dead-letters/parked`).
const MAX_DEPTH: usize = 8;

/// Sets the process's umask so that what it creates is its user's alone (077), and returns
/// the one it had.
pub fn restrict_umask() -> u32 {
    let before = rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o077));
    before.as_raw_mode() as u32
}

/// Makes `dir` (and the folders above it that are missing) 0700, and everything in it 0600
/// (files) or 0700 (folders).
/// Folders it makes are synced into their parents ([`crate::durable::create_dir_all`]): the
/// journal, made in it next, must not lose its folder to a power cut.
pub fn keep_private(dir: &Path) -> io::Result<()> {
    crate::durable::create_dir_all(dir)?;
    set_mode(dir, DIR_MODE)?;
    tighten(dir, 0)
}

fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    let now = std::fs::symlink_metadata(path)?.permissions().mode() & 0o7777;
    if now != mode {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
    }
    Ok(())
}

fn tighten(dir: &Path, depth: usize) -> io::Result<()> {
    if depth >= MAX_DEPTH {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            set_mode(&path, DIR_MODE)?;
            tighten(&path, depth + 1)?;
        } else if kind.is_file() {
            set_mode(&path, FILE_MODE)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn an_open_data_directory_is_closed_whatever_it_held() {
        let root = tempfile::tempdir().unwrap();
        let data = root.path().join("data");
        std::fs::create_dir_all(data.join("dead-letters/parked")).unwrap();
        let files = [
            data.join("journal.sqlite3"),
            data.join("journal.sqlite3-wal"),
            data.join("dead-letters/parked/x"),
        ];
        for f in &files {
            std::fs::write(f, "x").unwrap();
            std::fs::set_permissions(f, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        for d in [&data, &data.join("dead-letters")] {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        // A link to somewhere else is not followed.
        let outside = root.path().join("outside");
        std::fs::write(&outside, "x").unwrap();
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::os::unix::fs::symlink(&outside, data.join("link")).unwrap();
        keep_private(&data).unwrap();
        assert_eq!(mode(&data), 0o700);
        assert_eq!(mode(&data.join("dead-letters")), 0o700);
        assert_eq!(mode(&data.join("dead-letters/parked")), 0o700);
        for f in &files {
            assert_eq!(mode(f), 0o600, "{}", f.display());
        }
        assert_eq!(mode(&outside), 0o644);
        // A directory that does not exist yet is made private.
        let fresh = root.path().join("a/b/data");
        keep_private(&fresh).unwrap();
        assert_eq!(mode(&fresh), 0o700);
    }
}
