//! The fuzzing harnesses of ccrelay, one function per target (docs/fuzzing.md).
//!
//! Each harness takes the fuzzer's bytes, feeds them to one reader of hostile input, and
//! panics when a property fails: a panic inside ccrelay, or a round trip that does not come
//! back (a move written then read, a frame sealed then opened, a command rendered then
//! parsed). The binaries in `src/bin/` hand them to AFL; the integration test `fuzz_corpus`
//! replays every saved input through the same functions, so every crash once found stays a
//! regression test without AFL.

#![forbid(unsafe_code)]

pub mod targets;
