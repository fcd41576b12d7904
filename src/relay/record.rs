//! What the arbiter's desk reads of the record through the [`Mailbox`], every transport's
//! only door to it: `journal verify`'s verdict, the official exports, the heads, the day's
//! entries the arbiter made ([`crate::journal::desk`]).

use super::mailbox::{Mailbox, MailboxError};
use crate::journal::desk::{self, AdminEntry, Heads, Verdict};
pub use crate::journal::export::ExportFormat;

impl Mailbox {
    /// `journal verify` on the record as it stands.
    pub async fn verdict(&self) -> Result<Verdict, MailboxError> {
        self.read(|v| desk::verdict(v.connection())).await
    }

    /// A game's official export: PGN or the ICCF scoresheet (with the players' addresses).
    pub async fn export_game(
        &self,
        game: &str,
        format: ExportFormat,
    ) -> Result<String, MailboxError> {
        let (game, names) = (game.to_owned(), self.names.clone());
        self.read(move |v| desk::game(v.connection(), &game, format, &names))
            .await
    }

    /// An event's games as PGN, or (`record`) its record as text.
    pub async fn export_event(&self, event: &str, record: bool) -> Result<String, MailboxError> {
        let (event, names) = (event.to_owned(), self.names.clone());
        self.read(move |v| desk::event(v.connection(), &event, record, &names))
            .await
    }

    /// The chain's head and the last signed head.
    pub async fn heads(&self) -> Result<Heads, MailboxError> {
        self.read(|v| desk::heads(v.connection())).await
    }

    /// The entries the arbiter made on `day` (`2027-03-12`).
    pub async fn admin_entries(&self, day: &str) -> Result<Vec<AdminEntry>, MailboxError> {
        let day = day.to_owned();
        self.read(move |v| desk::admin_entries(v.connection(), &day))
            .await
    }
}
