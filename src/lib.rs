//! ccrelay: a correspondence chess relay.
//!
//! Players send moves in ICCF numeric notation or any algebraic dialect; ccrelay checks each
//! move against the game, records it in the journal, translates it and forwards it to the
//! opponent in the notation and language the opponent reads. The flow of one move:
//! a transport ([`transport`]) authenticates the sender and cuts bytes into commands; the relay
//! ([`relay`]) checks the move against its [`game`], commits it to the [`journal`], answers the
//! sender and queues the move for the opponent in a durable outbox.

#![forbid(unsafe_code)]

pub mod auth;
pub mod backoff;
pub mod bench;
pub mod catalog;
pub mod command;
pub mod config;
pub mod convert;
pub mod draughts;
pub mod durable;
pub mod event;
pub mod game;
pub mod init;
pub mod journal;
pub mod limiter;
pub mod monitoring;
pub mod notation;
pub mod open_files;
pub mod private_files;
pub mod relay;
pub mod server;
pub mod text;
pub mod transport;
