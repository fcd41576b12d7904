//! The durable queue of the relay's replies to senders (acknowledgements and errors). The
//! journal's outbox holds what the relay sends a player about a game; a reply to one mail is
//! made by the transport, so it waits here: one file per mail, written to `tmp/`, synced,
//! then renamed into `new/` (Maildir's way), and deleted only after the SMTP server took it.

use std::path::PathBuf;
use std::sync::Arc;

use tokio::sync::Notify;

use crate::durable::{create_dir_all, sync_dir};

#[derive(Clone)]
pub struct Spool {
    dir: PathBuf,
    wake: Arc<Notify>,
}

/// A spooled mail: its file, recipient and bytes.
pub struct Spooled {
    pub path: PathBuf,
    pub id: String,
    pub to: String,
    pub bytes: Vec<u8>,
}

impl Spool {
    pub fn open(dir: PathBuf) -> std::io::Result<Spool> {
        // Made durable: a reply synced into a folder a power cut takes away is lost.
        create_dir_all(&dir.join("tmp"))?;
        create_dir_all(&dir.join("new"))?;
        Ok(Spool {
            dir,
            wake: Arc::new(Notify::new()),
        })
    }

    /// Woken when a mail is spooled.
    pub fn wake(&self) -> Arc<Notify> {
        self.wake.clone()
    }

    /// Stores a mail for `to` durably; a mail with the same id already waiting is kept as is.
    pub async fn put(&self, id: &str, to: &str, bytes: &[u8]) -> std::io::Result<()> {
        let dir = self.dir.clone();
        let id = id.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_");
        let mut content = Vec::with_capacity(bytes.len() + to.len() + 1);
        content.extend_from_slice(to.as_bytes());
        content.push(b'\n');
        content.extend_from_slice(bytes);
        tokio::task::spawn_blocking(move || -> std::io::Result<()> {
            let new = dir.join("new");
            for entry in std::fs::read_dir(&new)? {
                if entry?
                    .file_name()
                    .to_string_lossy()
                    .ends_with(&format!("-{id}"))
                {
                    return Ok(());
                }
            }
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            let name = format!("{nanos:024}-{id}");
            let tmp = dir.join("tmp").join(&name);
            std::fs::write(&tmp, &content)?;
            std::fs::File::open(&tmp)?.sync_all()?;
            std::fs::rename(&tmp, new.join(&name))?;
            sync_dir(&new)
        })
        .await
        .map_err(std::io::Error::other)??;
        self.wake.notify_one();
        Ok(())
    }

    /// The waiting mails, oldest first, at most `limit`.
    pub async fn waiting(&self, limit: usize) -> std::io::Result<Vec<Spooled>> {
        let new = self.dir.join("new");
        tokio::task::spawn_blocking(move || -> std::io::Result<Vec<Spooled>> {
            let mut names: Vec<String> = std::fs::read_dir(&new)?
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names.truncate(limit);
            let mut out = Vec::new();
            for name in names {
                let path = new.join(&name);
                let Ok(content) = std::fs::read(&path) else {
                    continue;
                };
                let Some(split) = content.iter().position(|&b| b == b'\n') else {
                    continue;
                };
                let to = String::from_utf8_lossy(&content[..split]).into_owned();
                let id = name
                    .split_once('-')
                    .map_or(name.clone(), |(_, id)| id.to_owned());
                out.push(Spooled {
                    path,
                    id,
                    to,
                    bytes: content[split + 1..].to_vec(),
                });
            }
            Ok(out)
        })
        .await
        .map_err(std::io::Error::other)?
    }

    /// The mail was accepted by the SMTP server: forget it.
    pub async fn remove(&self, spooled: &Spooled) -> std::io::Result<()> {
        let path = spooled.path.clone();
        let dir = self.dir.join("new");
        tokio::task::spawn_blocking(move || {
            std::fs::remove_file(&path)?;
            sync_dir(&dir)
        })
        .await
        .map_err(std::io::Error::other)?
    }
}
