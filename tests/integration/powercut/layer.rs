//! A filesystem that forgets what was not synced: the disk of a machine whose power can be cut.
//!
//! It is a FUSE filesystem (crate `fuser`) served by a thread of the test process and kept
//! wholly in memory, as two images of every file and folder:
//!
//! - what programs see (the page cache, in a real machine): every write, create, rename and
//!   unlink lands here at once;
//! - what the disk holds: a file's bytes reach it only when that file is synced (`fsync`,
//!   `fdatasync`, `sync_file_range` all arrive as the same FUSE request), and a folder's names
//!   (a create, a rename, an unlink, a `mkdir`) only when that folder is synced.
//!
//! A **cut** ([`Layer::cut`], or armed to strike at the n-th change with [`Layer::arm`]) turns
//! every later request into `EIO`: the machine is dead, nothing more reaches the disk.
//! [`Layer::power_on`] unmounts, throws away everything the disk does not hold, and mounts
//! again: programs then see only what was synced before the cut.
//!
//! The model is stricter than ext4 in one way, as POSIX allows: a rename between two folders
//! is durable in each folder when that folder is synced, so a cut between the two syncs shows
//! the file in both places or in neither. A rename within one folder is all or nothing.
//! Modes and times are kept but not modelled as lost. Locks are left to the kernel (the
//! filesystem asks for no lock support, so POSIX and BSD locks are kept locally, as on any
//! local filesystem), and SQLite's shared-memory file is mapped as on any other.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use fuser::{
    BackgroundSession, Errno, FileAttr, FileHandle, FileType, Filesystem, FopenFlags, Generation,
    INodeNo, LockOwner, MountOption, OpenFlags, RenameFlags, ReplyAttr, ReplyCreate, ReplyData,
    ReplyDirectory, ReplyEmpty, ReplyEntry, ReplyOpen, ReplyStatfs, ReplyWrite, Request, TimeOrNow,
    WriteFlags,
};

/// How long the kernel may trust a name or attributes: every change passes through this one
/// mount, so the kernel's copy never goes stale while it is mounted.
const TTL: Duration = Duration::from_secs(1);
const ROOT: u64 = 1;

/// One file or folder, as programs see it and as the disk holds it.
#[derive(Clone)]
struct Node {
    dir: bool,
    mode: u16,
    uid: u32,
    gid: u32,
    mtime: SystemTime,
    /// A file's bytes as programs see them, and as the disk holds them.
    data: Vec<u8>,
    synced_data: Vec<u8>,
    /// A folder's names as programs see them, and as the disk holds them.
    entries: BTreeMap<OsString, u64>,
    synced_entries: BTreeMap<OsString, u64>,
    /// Names that point here (programs' view), and open handles: a file with neither is gone.
    links: u32,
    open: u32,
}

impl Node {
    fn new(dir: bool, mode: u16, uid: u32, gid: u32) -> Node {
        Node {
            dir,
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
}

/// The whole disk, shared by the mount's thread and the test.
struct Disk {
    nodes: BTreeMap<u64, Node>,
    next_ino: u64,
    /// Changes (writes, truncations, creates, renames, unlinks, syncs) since the last power-on.
    changes: u64,
    /// Cut when the change with this number arrives (it fails, as does everything after).
    cut_at: Option<u64>,
    cut: bool,
    /// Counted for the report: syncs of files and of folders that reached the disk.
    syncs: u64,
}

impl Disk {
    /// Counts a change; false (and the cut made) when the power is off.
    fn change(&mut self, signal: &Condvar) -> bool {
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
    fn power_on(&mut self) {
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

    fn attr(&self, ino: u64) -> Option<FileAttr> {
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
            kind: if node.dir {
                FileType::Directory
            } else {
                FileType::RegularFile
            },
            perm: node.mode,
            nlink: if node.dir { 2 } else { node.links },
            uid: node.uid,
            gid: node.gid,
            rdev: 0,
            blksize: 4096,
            flags: 0,
        })
    }

    fn child(&self, parent: u64, name: &OsStr) -> Result<u64, Errno> {
        let dir = self.nodes.get(&parent).ok_or(Errno::ENOENT)?;
        if !dir.dir {
            return Err(Errno::ENOTDIR);
        }
        dir.entries.get(name).copied().ok_or(Errno::ENOENT)
    }

    /// A new node named `name` in `parent`.
    fn make(&mut self, parent: u64, name: &OsStr, node: Node) -> Result<u64, Errno> {
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
    fn unlinked(&mut self, ino: u64) {
        if let Some(node) = self.nodes.get_mut(&ino) {
            node.links = node.links.saturating_sub(1);
            if node.links == 0 && node.open == 0 {
                node.data = Vec::new();
            }
        }
    }

    fn remove(&mut self, parent: u64, name: &OsStr, dir: bool) -> Result<(), Errno> {
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

    fn rename(
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

/// The filesystem the mount's thread serves.
struct Fs {
    disk: Arc<(Mutex<Disk>, Condvar)>,
}

impl Fs {
    fn disk(&self) -> MutexGuard<'_, Disk> {
        self.disk.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The disk for a request that reads: refused after a cut.
    fn alive(&self) -> Result<MutexGuard<'_, Disk>, Errno> {
        let disk = self.disk();
        if disk.cut { Err(Errno::EIO) } else { Ok(disk) }
    }

    /// The disk for a request that changes something: counted, and refused after a cut.
    fn changing(&self) -> Result<MutexGuard<'_, Disk>, Errno> {
        let mut disk = self.disk();
        if disk.change(&self.disk.1) {
            Ok(disk)
        } else {
            Err(Errno::EIO)
        }
    }

    fn entry(&self, disk: &Disk, ino: u64, reply: ReplyEntry) {
        match disk.attr(ino) {
            Some(attr) => reply.entry(&TTL, &attr, Generation(0)),
            None => reply.error(Errno::ENOENT),
        }
    }
}

fn done(reply: ReplyEmpty, result: Result<(), Errno>) {
    match result {
        Ok(()) => reply.ok(),
        Err(e) => reply.error(e),
    }
}

impl Filesystem for Fs {
    fn lookup(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEntry) {
        let disk = match self.alive() {
            Ok(d) => d,
            Err(e) => return reply.error(e),
        };
        match disk.child(parent.0, name) {
            Ok(ino) => self.entry(&disk, ino, reply),
            Err(e) => reply.error(e),
        }
    }

    fn getattr(&self, _req: &Request, ino: INodeNo, _fh: Option<FileHandle>, reply: ReplyAttr) {
        match self.alive().map(|d| d.attr(ino.0)) {
            Ok(Some(attr)) => reply.attr(&TTL, &attr),
            Ok(None) => reply.error(Errno::ENOENT),
            Err(e) => reply.error(e),
        }
    }

    fn setattr(
        &self,
        _req: &Request,
        ino: INodeNo,
        mode: Option<u32>,
        uid: Option<u32>,
        gid: Option<u32>,
        size: Option<u64>,
        _atime: Option<TimeOrNow>,
        mtime: Option<TimeOrNow>,
        _ctime: Option<SystemTime>,
        _fh: Option<FileHandle>,
        _crtime: Option<SystemTime>,
        _chgtime: Option<SystemTime>,
        _bkuptime: Option<SystemTime>,
        _flags: Option<fuser::BsdFileFlags>,
        reply: ReplyAttr,
    ) {
        let result = if size.is_some() {
            self.changing()
        } else {
            self.alive()
        };
        let mut disk = match result {
            Ok(d) => d,
            Err(e) => return reply.error(e),
        };
        let Some(node) = disk.nodes.get_mut(&ino.0) else {
            return reply.error(Errno::ENOENT);
        };
        if let Some(size) = size {
            if node.dir {
                return reply.error(Errno::EISDIR);
            }
            node.data.resize(size as usize, 0);
            node.mtime = SystemTime::now();
        }
        if let Some(mode) = mode {
            node.mode = (mode & 0o7777) as u16;
        }
        node.uid = uid.unwrap_or(node.uid);
        node.gid = gid.unwrap_or(node.gid);
        match mtime {
            Some(TimeOrNow::SpecificTime(t)) => node.mtime = t,
            Some(TimeOrNow::Now) => node.mtime = SystemTime::now(),
            None => {}
        }
        match disk.attr(ino.0) {
            Some(attr) => reply.attr(&TTL, &attr),
            None => reply.error(Errno::ENOENT),
        }
    }

    fn mknod(
        &self,
        req: &Request,
        parent: INodeNo,
        name: &OsStr,
        mode: u32,
        umask: u32,
        _rdev: u32,
        reply: ReplyEntry,
    ) {
        if mode & nix::libc::S_IFMT != nix::libc::S_IFREG {
            return reply.error(Errno::EPERM);
        }
        let mut disk = match self.changing() {
            Ok(d) => d,
            Err(e) => return reply.error(e),
        };
        let node = Node::new(false, (mode & !umask & 0o7777) as u16, req.uid(), req.gid());
        match disk.make(parent.0, name, node) {
            Ok(ino) => self.entry(&disk, ino, reply),
            Err(e) => reply.error(e),
        }
    }

    fn mkdir(
        &self,
        req: &Request,
        parent: INodeNo,
        name: &OsStr,
        mode: u32,
        umask: u32,
        reply: ReplyEntry,
    ) {
        let mut disk = match self.changing() {
            Ok(d) => d,
            Err(e) => return reply.error(e),
        };
        let node = Node::new(true, (mode & !umask & 0o7777) as u16, req.uid(), req.gid());
        match disk.make(parent.0, name, node) {
            Ok(ino) => self.entry(&disk, ino, reply),
            Err(e) => reply.error(e),
        }
    }

    fn unlink(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEmpty) {
        done(
            reply,
            self.changing()
                .and_then(|mut d| d.remove(parent.0, name, false)),
        );
    }

    fn rmdir(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEmpty) {
        done(
            reply,
            self.changing()
                .and_then(|mut d| d.remove(parent.0, name, true)),
        );
    }

    fn rename(
        &self,
        _req: &Request,
        parent: INodeNo,
        name: &OsStr,
        newparent: INodeNo,
        newname: &OsStr,
        flags: RenameFlags,
        reply: ReplyEmpty,
    ) {
        let result = self
            .changing()
            .and_then(|mut d| d.rename(parent.0, name, newparent.0, newname, flags));
        done(reply, result);
    }

    fn open(&self, _req: &Request, ino: INodeNo, _flags: OpenFlags, reply: ReplyOpen) {
        let mut disk = match self.alive() {
            Ok(d) => d,
            Err(e) => return reply.error(e),
        };
        match disk.nodes.get_mut(&ino.0) {
            Some(node) => {
                node.open += 1;
                reply.opened(FileHandle(0), FopenFlags::empty());
            }
            None => reply.error(Errno::ENOENT),
        }
    }

    fn create(
        &self,
        req: &Request,
        parent: INodeNo,
        name: &OsStr,
        mode: u32,
        umask: u32,
        flags: i32,
        reply: ReplyCreate,
    ) {
        let mut disk = match self.changing() {
            Ok(d) => d,
            Err(e) => return reply.error(e),
        };
        let ino = match disk.child(parent.0, name) {
            Ok(_) if flags & nix::libc::O_EXCL != 0 => return reply.error(Errno::EEXIST),
            Ok(ino) => {
                if flags & nix::libc::O_TRUNC != 0
                    && let Some(node) = disk.nodes.get_mut(&ino)
                {
                    node.data.clear();
                }
                ino
            }
            Err(_) => {
                let node = Node::new(false, (mode & !umask & 0o7777) as u16, req.uid(), req.gid());
                match disk.make(parent.0, name, node) {
                    Ok(ino) => ino,
                    Err(e) => return reply.error(e),
                }
            }
        };
        if let Some(node) = disk.nodes.get_mut(&ino) {
            node.open += 1;
        }
        match disk.attr(ino) {
            Some(attr) => reply.created(
                &TTL,
                &attr,
                Generation(0),
                FileHandle(0),
                FopenFlags::empty(),
            ),
            None => reply.error(Errno::ENOENT),
        }
    }

    fn read(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        size: u32,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        reply: ReplyData,
    ) {
        let disk = match self.alive() {
            Ok(d) => d,
            Err(e) => return reply.error(e),
        };
        let Some(node) = disk.nodes.get(&ino.0) else {
            return reply.error(Errno::ENOENT);
        };
        let start = (offset as usize).min(node.data.len());
        let end = start.saturating_add(size as usize).min(node.data.len());
        reply.data(&node.data[start..end]);
    }

    fn write(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        data: &[u8],
        _write_flags: WriteFlags,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        reply: ReplyWrite,
    ) {
        let mut disk = match self.changing() {
            Ok(d) => d,
            Err(e) => return reply.error(e),
        };
        let Some(node) = disk.nodes.get_mut(&ino.0) else {
            return reply.error(Errno::ENOENT);
        };
        let start = offset as usize;
        let end = start + data.len();
        if node.data.len() < end {
            node.data.resize(end, 0);
        }
        node.data[start..end].copy_from_slice(data);
        node.mtime = SystemTime::now();
        reply.written(data.len() as u32);
    }

    fn flush(
        &self,
        _req: &Request,
        _ino: INodeNo,
        _fh: FileHandle,
        _lock_owner: LockOwner,
        reply: ReplyEmpty,
    ) {
        reply.ok();
    }

    fn release(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        _flush: bool,
        reply: ReplyEmpty,
    ) {
        let mut disk = self.disk();
        if let Some(node) = disk.nodes.get_mut(&ino.0) {
            node.open = node.open.saturating_sub(1);
            if node.links == 0 && node.open == 0 {
                node.data = Vec::new();
            }
        }
        reply.ok();
    }

    fn fsync(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        _datasync: bool,
        reply: ReplyEmpty,
    ) {
        let result = self.changing().and_then(|mut disk| {
            let node = disk.nodes.get_mut(&ino.0).ok_or(Errno::ENOENT)?;
            node.synced_data.clone_from(&node.data);
            disk.syncs += 1;
            Ok(())
        });
        done(reply, result);
    }

    fn readdir(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        mut reply: ReplyDirectory,
    ) {
        let disk = match self.alive() {
            Ok(d) => d,
            Err(e) => return reply.error(e),
        };
        let Some(node) = disk.nodes.get(&ino.0) else {
            return reply.error(Errno::ENOENT);
        };
        let mut all: Vec<(u64, FileType, OsString)> = vec![
            (ino.0, FileType::Directory, ".".into()),
            (ino.0, FileType::Directory, "..".into()),
        ];
        for (name, child) in &node.entries {
            let kind = match disk.nodes.get(child) {
                Some(n) if n.dir => FileType::Directory,
                _ => FileType::RegularFile,
            };
            all.push((*child, kind, name.clone()));
        }
        for (i, (child, kind, name)) in all.into_iter().enumerate().skip(offset as usize) {
            if reply.add(INodeNo(child), i as u64 + 1, kind, &name) {
                break;
            }
        }
        reply.ok();
    }

    fn fsyncdir(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        _datasync: bool,
        reply: ReplyEmpty,
    ) {
        let result = self.changing().and_then(|mut disk| {
            let node = disk.nodes.get_mut(&ino.0).ok_or(Errno::ENOENT)?;
            node.synced_entries.clone_from(&node.entries);
            disk.syncs += 1;
            Ok(())
        });
        done(reply, result);
    }

    fn statfs(&self, _req: &Request, _ino: INodeNo, reply: ReplyStatfs) {
        reply.statfs(1 << 20, 1 << 19, 1 << 19, 1 << 16, 1 << 15, 4096, 255, 4096);
    }
}

/// The disk, mounted at a folder. Unmounted when dropped.
pub struct Layer {
    disk: Arc<(Mutex<Disk>, Condvar)>,
    mountpoint: PathBuf,
    session: Option<BackgroundSession>,
}

/// Fails, never skips, where FUSE cannot be used, saying what is missing.
pub fn require_fuse() {
    if !Path::new("/dev/fuse").exists() {
        panic!(
            "/dev/fuse is missing: the power-cut tests need FUSE (load the fuse module; in a container, pass the device /dev/fuse)"
        );
    }
}

impl Layer {
    /// An empty disk mounted at `mountpoint` (an empty folder), its root owned as that folder.
    pub fn mount(mountpoint: &Path) -> Layer {
        require_fuse();
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(mountpoint).expect("the mount point");
        let mut root = Node::new(true, 0o755, meta.uid(), meta.gid());
        root.links = 1;
        let disk = Disk {
            nodes: BTreeMap::from([(ROOT, root)]),
            next_ino: ROOT + 1,
            changes: 0,
            cut_at: None,
            cut: false,
            syncs: 0,
        };
        let mut layer = Layer {
            disk: Arc::new((Mutex::new(disk), Condvar::new())),
            mountpoint: mountpoint.to_owned(),
            session: None,
        };
        layer.attach();
        layer
    }

    fn attach(&mut self) {
        let mut config = fuser::Config::default();
        config.mount_options = vec![
            MountOption::FSName("ccrelay-powercut".to_owned()),
            MountOption::Subtype("powercut".to_owned()),
        ];
        let fs = Fs {
            disk: self.disk.clone(),
        };
        let session = fuser::spawn_mount(fs, &self.mountpoint, &config).unwrap_or_else(|e| {
            panic!(
                "cannot mount the power-cut filesystem at {} ({e}): FUSE must work here (/dev/fuse, root or fusermount3)",
                self.mountpoint.display()
            )
        });
        self.session = Some(session);
    }

    fn disk(&self) -> MutexGuard<'_, Disk> {
        self.disk.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Arms a cut at the `n`-th change from now (1: the very next one).
    pub fn arm(&self, n: u64) {
        let mut disk = self.disk();
        disk.cut_at = Some(disk.changes + n.max(1));
    }

    /// Cuts the power now (if it is not cut already).
    pub fn cut(&self) {
        let mut disk = self.disk();
        disk.cut = true;
        self.disk.1.notify_all();
    }

    /// Whether the power is cut, waiting up to `timeout` for it.
    pub fn wait_cut(&self, timeout: Duration) -> bool {
        let disk = self.disk();
        let (disk, _) = self
            .disk
            .1
            .wait_timeout_while(disk, timeout, |d| !d.cut)
            .unwrap_or_else(|p| p.into_inner());
        disk.cut
    }

    /// Changes since the last power-on, and syncs ever.
    pub fn counts(&self) -> (u64, u64) {
        let disk = self.disk();
        (disk.changes, disk.syncs)
    }

    /// Unmounts (every program using it must be dead), keeps only what the disk holds, and
    /// mounts it again.
    pub fn power_on(&mut self) {
        self.cut();
        self.detach();
        self.disk().power_on();
        self.attach();
    }

    fn detach(&mut self) {
        if let Some(session) = self.session.take()
            && let Err(e) = session.umount_and_join()
        {
            panic!("cannot unmount {}: {e}", self.mountpoint.display());
        }
    }
}

impl Drop for Layer {
    fn drop(&mut self) {
        self.cut();
        if let Some(session) = self.session.take() {
            let _ = session.umount_and_join();
        }
    }
}
