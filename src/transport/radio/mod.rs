//! Amateur packet radio: a KISS TNC (Direwolf's KISS port, or a hardware TNC on a serial line)
//! carrying AX.25 UI frames, each with the station's callsign as its source.
//!
//! The relay sends nothing but UI frames: one frame a message, acknowledged and resent by the
//! application above (the node link's own ARQ), which costs a move 1–2 s of a shared 1200-baud
//! channel where AX.25's connected mode costs about 10 (docs/radio.md). Nothing on air is
//! encrypted.
//!
//! | file | what |
//! |---|---|
//! | `aprs.rs` | APRS messages: read, written, acknowledged; answers cut to a radio's width, in ASCII |
//! | `kiss.rs` | the host–TNC framing |
//! | `ax25.rs` | UI frames and callsigns |
//! | `pace.rs` | the transmit budget, a token bucket of bytes on air |
//! | `link.rs` | the node link's line: its frames in UI frames to the peer's callsign |
//! | `port.rs` | a port: the TNC's connection, the queue, what is heard |
//! | `station.rs` | players by APRS message: messages read, acknowledged, applied once, answered |
//! | `words.rs` | what a player types (`g1 Nf3 K7Q2M`), read into the grammar's commands |
//! | `card.rs` | the players' printed cards of one-time codes |
//! | `answers.rs` | what a radio player reads, and a message's resend schedule |
//! | `store.rs` | what a station keeps through a restart: codes used, messages not acknowledged |

pub mod answers;
pub mod aprs;
pub mod ax25;
pub mod card;
pub mod kiss;
pub mod link;
pub mod pace;
pub mod port;
pub mod station;
pub mod store;
pub mod words;
