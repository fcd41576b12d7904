//! Inbound mail from a Maildir (a relay behind a local mail server that delivers into one).
//!
//! New mail is in `new/`; each is read (at most `email.max_message_bytes` of it), handled, and
//! only then moved to `cur/` with the Seen flag (`:2,S`), so a crash before the move means the
//! mail is read again, and recognised by its key. `new/` is looked at every poll interval.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::inbound::{Inbound, Outcome};

/// Reads at most `max` bytes of a file; says whether there was more.
pub fn read_bounded(path: &Path, max: usize) -> std::io::Result<(Vec<u8>, bool)> {
    let file = std::fs::File::open(path)?;
    let mut buf = Vec::with_capacity(max.min(1 << 16));
    file.take(max as u64 + 1).read_to_end(&mut buf)?;
    let truncated = buf.len() > max;
    buf.truncate(max);
    Ok((buf, truncated))
}

/// Files waiting in `dir/new`, oldest name first (Maildir names start with the time).
fn new_mail(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir.join("new"))?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .collect();
    names.sort();
    Ok(names)
}

/// Moves a handled mail to `cur/` with the Seen flag.
fn mark_seen(dir: &Path, path: &Path) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let base = name.split_once(":2,").map_or(name.as_str(), |(b, _)| b);
    std::fs::rename(path, dir.join("cur").join(format!("{base}:2,S")))?;
    std::fs::File::open(dir.join("new"))?.sync_all()?;
    std::fs::File::open(dir.join("cur"))?.sync_all()
}

/// Watches the Maildir until shutdown.
pub async fn run(
    dir: PathBuf,
    inbound: Inbound,
    max_bytes: usize,
    poll: Duration,
    shutdown: CancellationToken,
) {
    loop {
        let paths = {
            let dir = dir.clone();
            tokio::task::spawn_blocking(move || new_mail(&dir))
                .await
                .unwrap_or_else(|e| Err(std::io::Error::other(e)))
        };
        match paths {
            Ok(paths) => {
                for path in paths {
                    if shutdown.is_cancelled() {
                        return;
                    }
                    let read = {
                        let path = path.clone();
                        tokio::task::spawn_blocking(move || read_bounded(&path, max_bytes))
                            .await
                            .unwrap_or_else(|e| Err(std::io::Error::other(e)))
                    };
                    let (raw, truncated) = match read {
                        Ok(read) => read,
                        Err(e) => {
                            tracing::warn!(path = %path.display(), error = %e, "cannot read mail");
                            continue;
                        }
                    };
                    match inbound.handle(&raw, truncated).await {
                        Outcome::Done => {
                            let (dir, path) = (dir.clone(), path.clone());
                            let moved = tokio::task::spawn_blocking(move || mark_seen(&dir, &path))
                                .await
                                .unwrap_or_else(|e| Err(std::io::Error::other(e)));
                            if let Err(e) = moved {
                                tracing::error!(error = %e, "cannot mark a handled mail seen");
                            }
                        }
                        Outcome::Retry(why) => {
                            tracing::warn!(%why, "mail left for later");
                            break;
                        }
                    }
                }
            }
            // A Maildir the mail server has not made yet (no mail delivered so far) is empty.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                tracing::debug!(dir = %dir.display(), "no Maildir yet")
            }
            Err(e) => tracing::error!(dir = %dir.display(), error = %e, "cannot list the Maildir"),
        }
        tokio::select! {
            () = tokio::time::sleep(poll) => {}
            () = shutdown.cancelled() => return,
        }
    }
}
