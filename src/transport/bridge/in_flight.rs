//! A message sent alone (`MSG` with no move) in flight to the server, remembered on disk
//! across a crash. A move carries its number, so the server refuses it a second time
//! (`InvalidMoveNumber`) and the next `GetMyGames` shows whether it arrived; a message alone
//! has no guard, and `GetMyGames` shows only the opponent's last message, never the
//! account's. So before a message alone is sent its outbox row is written here, and removed
//! once the server answered (or surely never got it: no connection); a row still named here
//! after a restart may have reached the server, and is not sent again: its player is told to
//! send it again if it is missing (docs/xfcc.md, "A message after a crash"). Nothing is lost
//! without the player knowing, and nothing arrives twice.

use std::path::{Path, PathBuf};

use super::client::CallError;

/// The outbox row of a message alone whose call may have reached the server.
pub struct InFlight {
    path: PathBuf,
    row: Option<i64>,
}

impl InFlight {
    /// Remote account `remote`'s record in `data_dir` (`remotes/<remote>.sending`), as the
    /// last run left it.
    pub fn open(data_dir: &Path, remote: &str) -> InFlight {
        let path = data_dir.join("remotes").join(format!("{remote}.sending"));
        let row = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| text.trim().parse().ok());
        InFlight { path, row }
    }

    /// Whether row `row`'s message was being sent when the last run stopped.
    pub fn was_sending(&self, row: i64) -> bool {
        self.row == Some(row)
    }

    /// Row `row`'s message is about to be sent: written and synced before the call.
    pub fn mark(&mut self, row: i64) -> std::io::Result<()> {
        if let Some(dir) = self.path.parent() {
            crate::durable::create_dir_all(dir)?;
        }
        crate::durable::replace(&self.path, row.to_string().as_bytes())?;
        self.row = Some(row);
        Ok(())
    }

    /// The message was answered, or surely never sent: forgotten.
    pub fn clear(&mut self) -> std::io::Result<()> {
        if self.row.take().is_some() {
            match std::fs::remove_file(&self.path) {
                Ok(()) => crate::durable::sync_parent(&self.path)?,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// Whether a call that failed so may have reached the server: anything after the connection
/// was made and secured (the request may have been read before the answer was lost).
pub fn may_have_arrived(error: &CallError) -> bool {
    !matches!(
        error,
        CallError::Url(_) | CallError::Connect(_) | CallError::Tls(_)
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_message_in_flight_is_remembered_across_a_restart_until_cleared() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut flight = InFlight::open(dir.path(), "iccf");
        assert!(!flight.was_sending(7));
        flight.mark(7).expect("marked");
        // A crash here: the next run finds row 7 possibly sent.
        let mut after = InFlight::open(dir.path(), "iccf");
        assert!(after.was_sending(7) && !after.was_sending(8));
        assert!(!InFlight::open(dir.path(), "other").was_sending(7));
        after.clear().expect("cleared");
        assert!(!InFlight::open(dir.path(), "iccf").was_sending(7));
        after.clear().expect("cleared twice");
    }

    #[test]
    fn only_a_call_that_never_connected_surely_did_not_arrive() {
        assert!(!may_have_arrived(&CallError::Connect("x".into())));
        assert!(!may_have_arrived(&CallError::Tls("x".into())));
        assert!(may_have_arrived(&CallError::Timeout(Duration::from_secs(
            60
        ))));
        assert!(may_have_arrived(&CallError::Http("reset".into())));
        assert!(may_have_arrived(&CallError::Status(502)));
    }
}
