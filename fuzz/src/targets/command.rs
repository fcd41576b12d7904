//! The line-protocol command parser: `Command::parse`, `Command::parse_in`, `MoveLine::parse`;
//! and the one text check's mending and escaping (`command::text`) on the same line.

use ccrelay::command::text::{self, TextKind, refused_char};
use ccrelay::command::{Command, MoveLine};

use super::text as lossy;

/// No panic; every command read renders as a line that reads back to the same command
/// (`command/render.rs` promises it for every command the grammar produces), and so does
/// every move line; every text a person wrote in a command read passes the one text check
/// (`Command::check_texts`), so the relay never sees one it would refuse; a line scrubbed
/// passes the check (or is empty), and a line escaped holds no character the check refuses.
pub fn command(data: &[u8]) {
    let line = lossy(data);
    let scrubbed = text::scrub(&line, TextKind::Message.max_chars());
    assert!(
        scrubbed.is_empty() || text::check(&scrubbed, TextKind::Message).is_ok(),
        "{line:?} scrubbed to {scrubbed:?}"
    );
    let escaped = text::escaped(&line);
    assert!(
        escaped.chars().all(|c| refused_char(c).is_none()),
        "{line:?} escaped to {escaped:?}"
    );
    if let Ok(command) = Command::parse(&line) {
        assert_eq!(
            command.check_texts(),
            Ok(()),
            "{line:?} was read, but holds a text the one check refuses"
        );
        let rendered = command.to_string();
        assert_eq!(
            Command::parse(&rendered).as_ref(),
            Ok(&command),
            "{line:?} rendered as {rendered:?}"
        );
    }
    if let Ok(command) = Command::parse_in(&line, "g1") {
        assert_eq!(command.check_texts(), Ok(()), "{line:?} (in game g1)");
        let rendered = command.to_string();
        assert_eq!(
            Command::parse(&rendered).as_ref(),
            Ok(&command),
            "{line:?} (in game g1) rendered as {rendered:?}"
        );
    }
    if let Ok(move_line) = MoveLine::parse(&line) {
        let rendered = move_line.to_string();
        assert_eq!(
            MoveLine::parse(&rendered).as_ref(),
            Ok(&move_line),
            "{line:?} rendered as {rendered:?}"
        );
    }
}
