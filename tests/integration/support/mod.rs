//! What the test modules share, one module per kind of helper; the test modules hold only
//! their tests and helpers of their own.
//!
//! - [`process`]: the built `ccrelay` binary, a run of it within a time, a process's memory
//! - [`config`]: the players Alice, Boris and Carol, the arbiter's secret, a daemon's config
//! - [`daemon`]: the real daemon on a config, a player or the arbiter logged in to it
//! - [`line`]: the line-protocol client and the calls made with it
//! - [`journal`]: `ccrelay journal export` and `verify`, entries refused from mail
//! - [`games`]: a long real game to play
//! - [`http`]: plain HTTP/1.1 requests on real sockets, from any loopback address
//! - [`web`]: the web server's daemon with its events, its pages read, its forms and logins
//! - [`xfcc`]: XFCC's SOAP envelopes POSTed to the service
//! - [`browser`]: chromium driven through chromedriver
//! - [`mail`]: the loopback mail servers, mailboxes, a relay reaching players by mail
//! - [`link`]: two nodes joined by a link, their journals compared, a man in the middle
//! - [`radio`]: a radio channel with noise between two Direwolf software TNCs
//! - [`port`]: ports below the ephemeral range for servers that cannot bind port 0
//! - [`peers`]: the independent programs output is compared with (pgn-extract)
//! - [`terminal`]: a pseudo-terminal's far end, typed on and read as a person would
//! - [`tls`]: a TLS client trusting a test's own certificate
//! - [`convert`]: conversions in memory, movetext read back as moves
//! - [`fixtures`]: the files under `tests/fixtures/`

pub mod browser;
pub mod config;
pub mod convert;
pub mod daemon;
pub mod fixtures;
pub mod games;
pub mod http;
pub mod journal;
pub mod line;
pub mod link;
pub mod mail;
pub mod peers;
pub mod port;
pub mod process;
pub mod radio;
pub mod terminal;
pub mod tls;
pub mod web;
pub mod xfcc;

#[test]
#[should_panic(
    expected = "mail servers not running (nothing on 127.0.0.1:1): run `sudo tests/mail/setup.sh` (or tests/run)"
)]
fn without_mail_servers_an_email_test_fails_with_one_line_naming_the_command() {
    // Port 1 (tcpmux) has no listener on a test machine: as 25 and 993 without the servers.
    mail::require_listening(&[1]);
}
