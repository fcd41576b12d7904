//! The XFCC bridge: a player's games on a remote XFCC server (ICCF's, SchemingMind's, another
//! ccrelay's), read and answered with the player's account there, for a player reached only
//! by mail, a serial terminal or a link (docs/xfcc.md, "Playing a remote server's games
//! through ccrelay").
//!
//! It speaks XFCC as a client: the envelopes it sends ([`request`]), one call over HTTP or
//! HTTPS ([`client`]), the answers read as hostile input ([`answer`]) into typed games
//! ([`game`]); the server's moves and the player's proposals between its words and the
//! record's ([`moves`]); and a task per `[[remotes]]` account that polls the server, applies
//! its games through the relay (the server keeps their record) and sends the player's
//! proposals ([`account`]), telling its player and the admin when it fails for an hour,
//! recovers or is paused ([`health`]), and never sending a message alone twice across a
//! crash ([`in_flight`]).
//!
//! ```
//! use ccrelay::transport::bridge::{answer, request};
//!
//! let asked = request::get_my_games(&request::Credentials { username: "alice", password: "s3cret" });
//! assert!(asked.contains("<username>alice</username>"));
//! let answered = concat!(
//!     r#"<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>"#,
//!     r#"<GetMyGamesResponse xmlns="http://www.bennedik.com/webservices/XfccBasic"><GetMyGamesResult>"#,
//!     r#"<XfccGame><id>7</id><white>alice</white><black>bob</black><myTurn>true</myTurn>"#,
//!     r#"<hasWhite>true</hasWhite><moves></moves><result>Ongoing</result></XfccGame>"#,
//!     r#"</GetMyGamesResult></GetMyGamesResponse></soap:Body></soap:Envelope>"#
//! );
//! let games = answer::games(answered.as_bytes()).unwrap();
//! assert_eq!(games[0].id, "7");
//! assert!(games[0].my_turn && games[0].has_white);
//! ```

pub mod account;
pub mod answer;
pub mod client;
pub mod game;
pub mod health;
pub mod in_flight;
pub mod moves;
pub mod request;
