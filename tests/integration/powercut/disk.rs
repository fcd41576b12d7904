//! The disk of the power-cut [`Layer`](super::layer::Layer), as data: every file and folder
//! twice, as programs see it and as the disk holds it; the changes programs make, a cut, and
//! the power coming back with only what the disk holds. No FUSE here: `layer.rs` serves it.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::sync::Condvar;
use std::time::SystemTime;

use fuser::{Errno, FileAttr, FileType, INodeNo, RenameFlags};

/// The root folder's inode number (FUSE's).
pub(super) const ROOT: u64 = 1;

/// One file or folder, as programs see it and as the disk holds it.
#[derive(Clone)]
pub(super) struct Node {
    pub(super) dir: bool,
    /// A Unix socket's name (the daemon's admin socket): no bytes, only the name.
    pub(super) socket: bool,
    pub(super) mode: u16,
    pub(super) uid: u32,
    pub(super) gid: u32,
    pub(super) mtime: SystemTime,
    /// A file's bytes as programs see them, and as the disk holds them.
    pub(super) data: Vec<u8>,
    pub(super) synced_data: Vec<u8>,
    /// A folder's names as programs see them, and as the disk holds them.
    pub(super) entries: BTreeMap<OsString, u64>,
    pub(super) synced_entries: BTreeMap<OsString, u64>,
    /// Names that point here (programs' view), and open handles: a file with neither is gone.
    pub(super) links: u32,
    pub(super) open: u32,
}

impl Node {
    pub(super) fn new(dir: bool, mode: u16, uid: u32, gid: u32) -> Node {
        Node {
            dir,
            socket: false,
            mode,
            uid,
            gid,
            mtime: SystemTime::now(),
            data: Vec::new(),
            synced_data: Vec::new(),
            entries: BTreeMap::new(),
            synced_entries: BTreeMap::new(),
            links: 1,
            open: 0,
        }
    }

    pub(super) fn kind(&self) -> FileType {
        if self.dir {
            FileType::Directory
        } else if self.socket {
            FileType::Socket
        } else {
            FileType::RegularFile
        }
    }
}

/// The whole disk, shared by the mount's thread and the test.
pub(super) struct Disk {
    pub(super) nodes: BTreeMap<u64, Node>,
    pub(super) next_ino: u64,
    /// Changes (writes, truncations, creates, renames, unlinks, syncs) since the last power-on.
    pub(super) changes: u64,
    /// Cut when the change with this number arrives (it fails, as does everything after).
    pub(super) cut_at: Option<u64>,
    pub(super) cut: bool,
    /// Counted for the report: syncs of files and of folders that reached the disk.
    pub(super) syncs: u64,
}

impl Disk {
    /// Counts a change; false (and the cut made) when the power is off.
    pub(super) fn change(&mut self, signal: &Condvar) -> bool {
        if self.cut {
            return false;
        }
        self.changes += 1;
        if self.cut_at.is_some_and(|at| self.changes >= at) {
            self.cut = true;
            signal.notify_all();
            return false;
        }
        true
    }

    /// After a cut: only what reached the disk, reachable from the root through synced names.
    pub(super) fn power_on(&mut self) {
        let mut keep = BTreeSet::new();
        let mut links: BTreeMap<u64, u32> = BTreeMap::new();
        let mut todo = vec![ROOT];
        while let Some(ino) = todo.pop() {
            if !keep.insert(ino) {
                continue;
            }
            if let Some(node) = self.nodes.get(&ino) {
                for child in node.synced_entries.values() {
                    *links.entry(*child).or_default() += 1;
                    todo.push(*child);
                }
            }
        }
        self.nodes.retain(|ino, _| keep.contains(ino));
        for (ino, node) in &mut self.nodes {
            node.data = node.synced_data.clone();
            node.entries = node.synced_entries.clone();
            node.links = links.get(ino).copied().unwrap_or(1);
            node.open = 0;
        }
        self.cut = false;
        self.cut_at = None;
        self.changes = 0;
    }

    pub(super) fn attr(&self, ino: u64) -> Option<FileAttr> {
        let node = self.nodes.get(&ino)?;
        let size = if node.dir {
            4096
        } else {
            node.data.len() as u64
        };
        Some(FileAttr {
            ino: INodeNo(ino),
            size,
            blocks: size.div_ceil(512),
            atime: node.mtime,
            mtime: node.mtime,
            ctime: node.mtime,
            crtime: node.mtime,
            kind: node.kind(),
            perm: node.mode,
            nlink: if node.dir { 2 } else { node.links },
            uid: node.uid,
            gid: node.gid,
            rdev: 0,
            blksize: 4096,
            flags: 0,
        })
    }

    pub(super) fn child(&self, parent: u64, name: &OsStr) -> Result<u64, Errno> {
        let dir = self.nodes.get(&parent).ok_or(Errno::ENOENT)?;
        if !dir.dir {
            return Err(Errno::ENOTDIR);
        }
        dir.entries.get(name).copied().ok_or(Errno::ENOENT)
    }

    /// A new node named `name` in `parent`.
    pub(super) fn make(&mut self, parent: u64, name: &OsStr, node: Node) -> Result<u64, Errno> {
        match self.child(parent, name) {
            Ok(_) => return Err(Errno::EEXIST),
            Err(e) if e != Errno::ENOENT => return Err(e),
            Err(_) => {}
        }
        let ino = self.next_ino;
        self.next_ino += 1;
        self.nodes.insert(ino, node);
        let dir = self.nodes.get_mut(&parent).ok_or(Errno::ENOENT)?;
        dir.entries.insert(name.to_owned(), ino);
        dir.mtime = SystemTime::now();
        Ok(ino)
    }

    /// One name fewer for `ino`; its bytes go when no name and no handle is left (the disk's
    /// copy stays, for a name the disk still holds).
    pub(super) fn unlinked(&mut self, ino: u64) {
        if let Some(node) = self.nodes.get_mut(&ino) {
            node.links = node.links.saturating_sub(1);
            if node.links == 0 && node.open == 0 {
                node.data = Vec::new();
            }
        }
    }

    pub(super) fn remove(&mut self, parent: u64, name: &OsStr, dir: bool) -> Result<(), Errno> {
        let ino = self.child(parent, name)?;
        let node = self.nodes.get(&ino).ok_or(Errno::ENOENT)?;
        match (dir, node.dir) {
            (true, false) => return Err(Errno::ENOTDIR),
            (false, true) => return Err(Errno::EISDIR),
            (true, true) if !node.entries.is_empty() => return Err(Errno::ENOTEMPTY),
            _ => {}
        }
        if let Some(p) = self.nodes.get_mut(&parent) {
            p.entries.remove(name);
            p.mtime = SystemTime::now();
        }
        self.unlinked(ino);
        Ok(())
    }

    pub(super) fn rename(
        &mut self,
        parent: u64,
        name: &OsStr,
        newparent: u64,
        newname: &OsStr,
        flags: RenameFlags,
    ) -> Result<(), Errno> {
        if flags.contains(RenameFlags::RENAME_EXCHANGE) {
            return Err(Errno::EINVAL);
        }
        let ino = self.child(parent, name)?;
        let is_dir = self.nodes.get(&ino).is_some_and(|n| n.dir);
        match self.child(newparent, newname) {
            Ok(_) if flags.contains(RenameFlags::RENAME_NOREPLACE) => return Err(Errno::EEXIST),
            Ok(old) if old == ino => return Ok(()),
            Ok(old) => {
                let target = self.nodes.get(&old).ok_or(Errno::ENOENT)?;
                match (is_dir, target.dir) {
                    (true, false) => return Err(Errno::ENOTDIR),
                    (false, true) => return Err(Errno::EISDIR),
                    (true, true) if !target.entries.is_empty() => return Err(Errno::ENOTEMPTY),
                    _ => {}
                }
                self.unlinked(old);
            }
            Err(e) if e != Errno::ENOENT => return Err(e),
            Err(_) => {}
        }
        let now = SystemTime::now();
        for (dir, remove, insert) in [(parent, Some(name), None), (newparent, None, Some(newname))]
        {
            let d = self.nodes.get_mut(&dir).ok_or(Errno::ENOENT)?;
            if let Some(n) = remove {
                d.entries.remove(n);
            }
            if let Some(n) = insert {
                d.entries.insert(n.to_owned(), ino);
            }
            d.mtime = now;
        }
        Ok(())
    }
}
