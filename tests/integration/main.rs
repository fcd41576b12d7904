//! One integration test binary, a module per area.

mod cli;
mod daemon;
mod email;
mod email_fixtures;
mod errors;
mod link;
mod peer;
mod regressions;
mod roundtrip;
mod rules;
mod seeds;
mod support;
mod terminal;
mod xfcc;
