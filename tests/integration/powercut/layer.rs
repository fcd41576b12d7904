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
//! Modes and times are kept but not modelled as lost. A Unix socket (the daemon's admin
//! socket) is a name with no bytes; the kernel keeps its listener. Locks are left to the kernel (the
//! filesystem asks for no lock support, so POSIX and BSD locks are kept locally, as on any
//! local filesystem), and SQLite's shared-memory file is mapped as on any other.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use fuser::{
    BackgroundSession, Errno, FileHandle, FileType, Filesystem, FopenFlags, Generation, INodeNo,
    LockOwner, MountOption, OpenFlags, RenameFlags, ReplyAttr, ReplyCreate, ReplyData,
    ReplyDirectory, ReplyEmpty, ReplyEntry, ReplyOpen, ReplyStatfs, ReplyWrite, Request, TimeOrNow,
    WriteFlags,
};

use super::disk::{Disk, Node, ROOT};

/// How long the kernel may trust a name or attributes: every change passes through this one
/// mount, so the kernel's copy never goes stale while it is mounted.
const TTL: Duration = Duration::from_secs(1);

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
        let kind = mode & nix::libc::S_IFMT;
        if kind != nix::libc::S_IFREG && kind != nix::libc::S_IFSOCK {
            return reply.error(Errno::EPERM);
        }
        let mut disk = match self.changing() {
            Ok(d) => d,
            Err(e) => return reply.error(e),
        };
        let mut node = Node::new(false, (mode & !umask & 0o7777) as u16, req.uid(), req.gid());
        node.socket = kind == nix::libc::S_IFSOCK;
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
            let kind = disk
                .nodes
                .get(child)
                .map_or(FileType::RegularFile, Node::kind);
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
    require_device(Path::new("/dev/fuse"));
}

fn require_device(device: &Path) {
    if !device.exists() {
        panic!(
            "{} is missing: the power-cut tests need FUSE (load the fuse module; in a container, pass the device /dev/fuse)",
            device.display()
        );
    }
}

#[test]
#[should_panic(
    expected = "/dev/no-fuse-here is missing: the power-cut tests need FUSE (load the fuse module; in a container, pass the device /dev/fuse)"
)]
fn without_dev_fuse_the_power_cut_tests_fail_saying_so() {
    require_device(Path::new("/dev/no-fuse-here"));
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

    /// Unmounts and waits for the mount's thread. The tests run in parallel, and a child
    /// another test forks holds copies of this process's open files until it executes its
    /// program (every file is close-on-exec): a file of this disk open at that moment keeps
    /// it busy for a moment. So a busy unmount is tried again, for up to two seconds.
    fn detach(&mut self) {
        let Some(session) = self.session.take() else {
            return;
        };
        let mut tries = 0;
        loop {
            match nix::mount::umount2(&self.mountpoint, nix::mount::MntFlags::empty()) {
                Ok(()) => break,
                Err(nix::errno::Errno::EBUSY) if tries < 100 => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => panic!("cannot unmount {}: {e}", self.mountpoint.display()),
            }
        }
        // The kernel ends the session; the thread returns, and fuser finds nothing to unmount.
        // A read the thread had waiting when the unmount tore the connection down may end in
        // ECONNABORTED instead of ENODEV (once in a loaded full suite): the unmount went
        // through all the same, and that is all this waits for.
        if let Err(e) = session.join()
            && e.raw_os_error() != Some(nix::errno::Errno::ECONNABORTED as i32)
        {
            panic!(
                "the filesystem's thread of {}: {e}",
                self.mountpoint.display()
            );
        }
    }
}

impl Drop for Layer {
    fn drop(&mut self) {
        self.cut();
        // Not the retrying `detach`: a test that failed may have left a program using it,
        // so a busy disk is detached lazily (gone from sight, ended once its last file closes).
        if let Some(session) = self.session.take()
            && session.umount_and_join().is_err()
        {
            let _ = nix::mount::umount2(&self.mountpoint, nix::mount::MntFlags::MNT_DETACH);
        }
    }
}
