//! The targets by name. This module uses only ccrelay's public API and shakmaty, so that the
//! integration test can include it as it is.

pub mod chess;
pub mod command;
pub mod config;
pub mod draughts;
pub mod link;
pub mod mail;
pub mod radio;
pub mod xfcc;

/// A harness: the fuzzer's bytes in, a panic when a property fails.
pub type Harness = fn(&[u8]);

/// Every target: its name (its binary's and its corpus folder's) and its harness.
pub const TARGETS: &[(&str, Harness)] = &[
    ("movetext", chess::movetext),
    ("move_token", chess::move_token),
    ("command", command::command),
    ("mail", mail::mail),
    ("link_stream", link::stream),
    ("link_message", link::message),
    ("config", config::config),
    ("xfcc", xfcc::envelope),
    ("draughts_move", draughts::move_token),
    ("draughts_text", draughts::text),
    ("radio", radio::stream),
];

/// The harness of the target `name`.
pub fn harness(name: &str) -> Option<Harness> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|(_, h)| *h)
}

/// Bytes as text the way a transport would see them after decoding: invalid UTF-8 replaced.
fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Splits a fuzzer's input into a small header of choices and the rest: `(byte 0, the next
/// `byte 1 % max_choices` bytes, the remainder)`. Missing bytes read as zero.
fn choices(data: &[u8], max_choices: usize) -> (u8, &[u8], &[u8]) {
    let first = data.first().copied().unwrap_or(0);
    let count = data
        .get(1)
        .map_or(0, |&n| usize::from(n) % (max_choices + 1));
    let rest = data.get(2..).unwrap_or(&[]);
    let count = count.min(rest.len());
    (first, &rest[..count], &rest[count..])
}
