//! The admin socket: a Unix socket `admin.sock` in the data directory on which each
//! connection is a line-protocol session ([`super::session`]) already logged in as the
//! administrator, for `ccrelay admin` and scripts on the daemon's own machine.
//!
//! Who may connect is decided by the operating system, twice. The socket file has mode 0600
//! whatever the umask: it is bound, then given its mode, and only then listened on, so until
//! the mode is set a connection is refused by the kernel (a socket that does not listen
//! accepts none). And each connection's peer credentials (`SO_PEERCRED`) must name the user
//! that owns the socket (the daemon's) or root; anyone else is told so and closed.
//!
//! One daemon per data directory is the journal's lock (`journal::keyring::lock`, taken when
//! the journal opens, before the socket is bound), so a socket file found at start is left by
//! a daemon that died without cleaning up: it is removed. The file is removed again when the
//! listener stops, if it is still the one bound.
//!
//! Bounded like the TCP listener: [`MAX_CONNECTIONS`] sessions at once (more wait in the
//! kernel's backlog), and each session keeps the configured line length, command budget and
//! idle timeout.

use std::io;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::{UnixListener, UnixSocket, UnixStream};
use tokio::sync::Semaphore;

use super::context::{Context, Peer};
use super::session::LineSession;
use crate::relay::{Channel, Status};

/// The socket's name in the data directory.
pub const SOCKET_NAME: &str = "admin.sock";

/// Admin sessions served at once; more wait in the kernel's backlog.
pub const MAX_CONNECTIONS: usize = 16;

/// Connections the kernel holds before they are accepted.
const BACKLOG: u32 = 64;

/// How long a refusal may take to write before the connection is closed anyway.
const REFUSAL_TIMEOUT: Duration = Duration::from_secs(2);

/// Where the admin socket of the daemon keeping its journal in `data_dir` is.
pub fn socket_path(data_dir: &Path) -> PathBuf {
    data_dir.join(SOCKET_NAME)
}

/// The admin socket, bound and listening; its file is removed when this is dropped.
pub struct AdminListener {
    listener: UnixListener,
    file: SocketFile,
    /// The uid allowed to connect besides root: the socket file's owner, the daemon's user.
    owner: u32,
}

impl AdminListener {
    /// The socket's path.
    pub fn path(&self) -> &Path {
        &self.file.path
    }
}

/// The socket file this daemon bound, removed when dropped if the path still names it.
struct SocketFile {
    path: PathBuf,
    dev: u64,
    ino: u64,
}

impl Drop for SocketFile {
    fn drop(&mut self) {
        if let Ok(meta) = std::fs::symlink_metadata(&self.path)
            && meta.dev() == self.dev
            && meta.ino() == self.ino
        {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Binds the admin socket in `data_dir`, mode 0600, replacing a stale socket file. The
/// caller holds the journal's lock on `data_dir`: no other daemon can be listening there.
pub fn bind(data_dir: &Path) -> io::Result<AdminListener> {
    let path = socket_path(data_dir);
    remove_stale(&path)?;
    let socket = UnixSocket::new_stream()?;
    socket.bind(&path)?;
    let meta = std::fs::symlink_metadata(&path)?;
    // Removed from here on, whatever fails next.
    let file = SocketFile {
        path,
        dev: meta.dev(),
        ino: meta.ino(),
    };
    // Not yet listening, so nobody can connect while the mode is still the umask's.
    std::fs::set_permissions(&file.path, std::fs::Permissions::from_mode(0o600))?;
    let listener = socket.listen(BACKLOG)?;
    Ok(AdminListener {
        listener,
        owner: meta.uid(),
        file,
    })
}

/// Removes a socket file left at `path` by a daemon that died; anything else there is not
/// ours to remove, and stops the start.
fn remove_stale(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_socket() => {
            tracing::info!(path = %path.display(), "removing the admin socket a stopped daemon left");
            std::fs::remove_file(path)
        }
        Ok(_) => Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "it exists and is not a socket; move it away",
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

/// Accepts admin sessions until shutdown; the socket file is removed when it returns.
pub async fn serve(admin: AdminListener, ctx: Arc<Context>) {
    let permits = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => return,
            },
            () = ctx.shutdown.cancelled() => return,
        };
        let stream = tokio::select! {
            accepted = admin.listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of descriptors and the like: wait a little rather than spin.
                    tracing::warn!(error = %e, "admin socket: accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = ctx.shutdown.cancelled() => return,
        };
        let ctx2 = ctx.clone();
        let owner = admin.owner;
        ctx.tracker.spawn(async move {
            let _permit = permit;
            if let Err(e) = connection(stream, owner, &ctx2).await {
                tracing::debug!(error = %e, "admin session ended with an error");
            }
        });
    }
}

async fn connection(mut stream: UnixStream, owner: u32, ctx: &Context) -> io::Result<()> {
    let uid = stream.peer_cred()?.uid();
    if uid != owner && uid != 0 {
        tracing::warn!(uid, "admin socket: refused a connection from another user");
        let refusal = format!(
            "{} the admin socket is for the daemon's user (uid {owner}) and root, not uid {uid}\n",
            Status::LoginRefused.code()
        );
        let _ = tokio::time::timeout(REFUSAL_TIMEOUT, stream.write_all(refusal.as_bytes())).await;
        return Ok(());
    }
    tracing::info!(uid, "admin session");
    let peer = Peer {
        key: format!("admin-socket:{uid}"),
        channel: Channel::Admin,
        printed: None,
        // The relay's own machine, its daemon's user or root: no one else reads this wire.
        private_wire: true,
    };
    LineSession::administrator(stream, peer, ctx).run().await
}
