//! The line-protocol command parser: `Command::parse`, `Command::parse_in`, `MoveLine::parse`.

use ccrelay::command::{Command, MoveLine};

use super::text;

/// No panic; every command read renders as a line that reads back to the same command
/// (`command/render.rs` promises it for every command the grammar produces), and so does
/// every move line.
pub fn command(data: &[u8]) {
    let line = text(data);
    if let Ok(command) = Command::parse(&line) {
        let rendered = command.to_string();
        assert_eq!(
            Command::parse(&rendered).as_ref(),
            Ok(&command),
            "{line:?} rendered as {rendered:?}"
        );
    }
    if let Ok(command) = Command::parse_in(&line, "g1") {
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
