//! One integration test binary, a module per area.

mod attack;
mod cli;
mod daemon;
mod draughts;
mod draughts_relay;
mod draughts_seed;
mod email;
mod email_fixtures;
mod email_hostile;
mod errors;
mod fuzz_corpus;
mod init;
mod link;
mod memory;
mod packaging;
mod peer;
mod receipts;
mod regressions;
mod roundtrip;
mod rules;
mod seeds;
mod support;
mod terminal;
mod web;
mod web_browser;
mod xfcc;
