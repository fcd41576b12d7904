//! ccrelay: a correspondence chess relay.
//!
//! Players send moves in ICCF numeric notation or any algebraic dialect; ccrelay checks each
//! move against the game, records it, translates it and forwards it to the opponent in the
//! notation and language the opponent reads. See `DESIGN.md` in the project's shared folder
//! for the architecture; this crate so far holds the notation core ([`notation`]) and the
//! `convert` command built on it ([`convert`]).

#![forbid(unsafe_code)]

pub mod convert;
pub mod notation;
