//! Pages followed live: Server-Sent Events that say `change` when what a page shows has
//! changed, within a moment of the journal's commit. The relay announces each changed game
//! ([`crate::relay::Relay::changes`]); a listener reads what its page shows again through
//! the relay (so only once it is committed) and speaks only when that differs, so a move
//! hidden by a delay rule makes no event at all.
//!
//! Spectators' pages: at most `http.max_listeners` listen at once, and
//! `http.max_listeners_per_address` from one address (`http.exempt_addresses` aside), a
//! quarter of that once half the listeners are taken ([`fair_limit`]), so a handful of
//! addresses cannot take them all; one more is answered 503 and the page's script tries again
//! later. A player's own pages (`/play/live`) listen apart from strangers: at most
//! [`PLAYER_LISTENERS`] a player, whatever spectators hold. Each stream sends a keep-alive
//! comment every 15 s and ends when the daemon stops. A listener that falls behind the relay's
//! announcements reads again. A player's stream (`/play/live`) also ends with the session
//! that opened it: at its logout, and when the player's secret changes
//! ([`crate::relay::Roster::ended`]).

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{Extension, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use tokio::sync::OwnedSemaphorePermit;
use tokio::sync::broadcast::error::RecvError;

use super::super::super::per_address::{Place, fair_limit};
use super::super::PeerAddr;
use super::{Web, not_found, viewer};
use crate::relay::Watched;

/// What a live page follows.
#[derive(Clone)]
enum Scope {
    All,
    Game(String),
    Event(String),
    /// A player's own games (their pages).
    Player(String),
}

impl Scope {
    fn concerns(&self, game: &str) -> bool {
        match self {
            Scope::Game(id) => id == game,
            Scope::All | Scope::Event(_) | Scope::Player(_) => true,
        }
    }
}

/// What the page shows, in short; `None` when it shows nothing (the game is not there for
/// this viewer, or the relay does not answer).
async fn fingerprint(web: &Web, scope: &Scope, arbiter: bool) -> Option<String> {
    if let Scope::Player(player) = scope {
        let games = web.ctx.relay.games_of(player).await.ok()?;
        let shown: Vec<String> = games
            .iter()
            .map(|g| {
                format!(
                    "{}:{}:{:?}:{:?}:{}:{:?}",
                    g.id,
                    g.moves.len(),
                    g.standing,
                    g.draw_offer,
                    g.conversation.len(),
                    g.on_leave
                )
            })
            .collect();
        return Some(shown.join("|"));
    }
    let one = match scope {
        Scope::Game(id) => Some(id.as_str()),
        _ => None,
    };
    let games: Vec<Watched> = web.ctx.relay.watch(one, arbiter).await.ok()?;
    let shown: Vec<String> = games
        .iter()
        .filter(|g| match scope {
            Scope::Event(e) => g.event.as_deref() == Some(e.as_str()),
            _ => true,
        })
        .map(Watched::fingerprint)
        .collect();
    (!shown.is_empty() || matches!(scope, Scope::All)).then(|| shown.join("|"))
}

/// What ends a stream besides the daemon's stop (never, for a spectator's).
type Until = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Live pages one player may have open at once (tabs, a phone), beside every spectator's.
pub const PLAYER_LISTENERS: usize = 8;

struct Listener {
    web: Arc<Web>,
    scope: Scope,
    arbiter: bool,
    last: String,
    changes: tokio::sync::broadcast::Receiver<String>,
    /// Ends the stream before the daemon stops: a player's session ending.
    until: Until,
    /// The listener's place among spectators' (none for a player's own page).
    _permit: Option<OwnedSemaphorePermit>,
    /// The listener's place among its address's (a spectator's, but for an exempt address),
    /// or among its player's.
    _place: Option<Place>,
}

impl Listener {
    /// Waits for the next change of what the page shows; `None` once the daemon stops.
    async fn next(&mut self) -> Option<Event> {
        loop {
            let changed = tokio::select! {
                () = self.web.ctx.shutdown.cancelled() => return None,
                () = self.until.as_mut() => return None,
                changed = self.changes.recv() => changed,
            };
            match changed {
                Ok(game) if !self.scope.concerns(&game) => continue,
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return None,
            }
            let now = fingerprint(&self.web, &self.scope, self.arbiter)
                .await
                .unwrap_or_default();
            if now != self.last {
                self.last = now;
                return Some(Event::default().event("change").data("change"));
            }
        }
    }
}

async fn listen(
    web: Arc<Web>,
    scope: Scope,
    peer: Option<Extension<PeerAddr>>,
    headers: HeaderMap,
    query: BTreeMap<String, String>,
    until: Until,
) -> Response {
    let v = match viewer(&web, &headers, &query) {
        Ok(v) => v,
        Err(page) => return *page,
    };
    let (permit, place) = match &scope {
        Scope::Player(player) => {
            let Some(place) = web
                .player_listeners
                .take_key(player.clone(), PLAYER_LISTENERS)
            else {
                return busy("too many of your live pages are open; close one");
            };
            (None, Some(place))
        }
        _ => {
            let in_use = web.max_listeners - web.listeners.available_permits();
            let place = match peer.map(|p| p.0.0.ip()) {
                Some(ip) if !web.exempt.contains(ip) => {
                    let limit = fair_limit(web.listeners_per_address, in_use, web.max_listeners);
                    match web.listeners_by_address.take(ip, limit) {
                        Some(place) => Some(place),
                        None => return busy("too many live listeners from your address"),
                    }
                }
                _ => None,
            };
            let Ok(permit) = web.listeners.clone().try_acquire_owned() else {
                return busy("too many live listeners");
            };
            (Some(permit), place)
        }
    };
    // Subscribed before the first reading, so no change falls between the two.
    let changes = web.ctx.relay.changes();
    let Some(last) = fingerprint(&web, &scope, v.arbiter).await else {
        return not_found(v.tongue);
    };
    let listener = Listener {
        web,
        scope,
        arbiter: v.arbiter,
        last,
        changes,
        until,
        _permit: permit,
        _place: place,
    };
    let stream = futures::stream::unfold(listener, |mut l| async move {
        let event = l.next().await?;
        Some((Ok::<Event, Infallible>(event), l))
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

/// 503 with `why`: the page's script tries again later.
fn busy(why: &str) -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [("retry-after", "10")],
        format!("{why}; try again later\n"),
    )
        .into_response()
}

/// `/live`: the index's games.
pub async fn index(
    State(web): State<Arc<Web>>,
    peer: Option<Extension<PeerAddr>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    listen(web, Scope::All, peer, headers, query, never()).await
}

/// `/games/{id}/live`.
pub async fn game(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    peer: Option<Extension<PeerAddr>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    listen(web, Scope::Game(id), peer, headers, query, never()).await
}

/// `/play/live`: the logged-in player's games (401 without a session).
pub async fn player(
    State(web): State<Arc<Web>>,
    peer: Option<Extension<PeerAddr>>,
    headers: HeaderMap,
) -> Response {
    let Some(me) = super::play::me(&web, &headers) else {
        return (StatusCode::UNAUTHORIZED, "log in first\n").into_response();
    };
    // The secret hash the session was opened with, as the roster has it now: the stream
    // ends once it is no longer the player's (looked at again after subscribing, so a new
    // secret since the session was found ends it at once).
    let player = me.session.player.clone();
    let roster = web.ctx.relay.roster();
    let Some(hash) = roster
        .with(&player, |p| p.secret_hash.clone())
        .filter(|hash| super::sessions::secret_digest(hash) == me.session.secret)
    else {
        return (StatusCode::UNAUTHORIZED, "log in first\n").into_response();
    };
    let secret_changed = roster.ended(&player, &hash);
    let following = web.play.sessions.follow(&me.session);
    let logged_out = following.ended();
    let until: Until = Box::pin(async move {
        let _following = following;
        tokio::select! {
            () = secret_changed => {}
            () = logged_out.cancelled() => {}
        }
    });
    listen(
        web,
        Scope::Player(player),
        peer,
        headers,
        BTreeMap::new(),
        until,
    )
    .await
}

/// A spectator's stream ends only with the daemon.
fn never() -> Until {
    Box::pin(std::future::pending())
}

/// `/events/{id}/live`.
pub async fn event(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    peer: Option<Extension<PeerAddr>>,
    headers: HeaderMap,
    Query(query): Query<BTreeMap<String, String>>,
) -> Response {
    listen(web, Scope::Event(id), peer, headers, query, never()).await
}
