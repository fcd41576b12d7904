//! One module per wire. Each turns bytes into [`crate::command::Command`]s for an
//! authenticated sender and relay replies and outbox messages back into bytes. Transports know
//! nothing of chess.

pub mod admin;
pub mod bridge;
pub mod context;
pub mod email;
pub mod http;
pub mod line;
pub mod link;
pub mod per_address;
pub mod proxy_header;
pub mod radio;
pub mod serial_port;
pub mod session;
pub mod stopping;
pub mod tcp;
pub mod terminal;
pub mod tls_client;
pub mod unsubscribe;
