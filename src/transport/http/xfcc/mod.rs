//! XFCC: the SOAP 1.1 web service correspondence clients (Scid, Scid vs. PC, Lucas Chess)
//! speak to correspondence servers. `POST /xfccbasic.asmx` takes `GetMyGames` and `MakeAMove`;
//! `GET /xfccbasic.asmx?wsdl` serves the service description (docs/xfcc.md).
//!
//! The operation is the body's element, never the `SOAPAction` header (Scid sends none). The
//! username is the player id and the password the player's secret, checked at the one login
//! door every transport shares (only failures count; a right secret is remembered for a few
//! minutes, so a call costs Argon2 only now and then). A player here asks for the
//! opponent's moves: nothing is pushed.

pub mod soap;
pub mod wsdl;

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use shakmaty::Color;

use super::PeerAddr;
use crate::command::text::Logged;
use crate::command::{Command, MoveLine, NumberedMove};
use crate::game::{Claim, EndReason, Kind};
use crate::limiter::KeyedBudget;
use crate::notation::number::MoveNumber;
use crate::notation::written::Marks;
use crate::relay::{
    Channel, GameView, Relay, Reply, Request, Sender, Standing, Status, mended_message,
};
use crate::transport::context::Context;
use soap::Call;

/// The endpoint, as the clients' documentation spells it and in lower case.
pub const PATHS: [&str; 2] = ["/xfccbasic.asmx", "/XfccBasic.asmx"];

#[derive(Clone)]
struct Xfcc {
    ctx: Arc<Context>,
    /// Whether the server speaks TLS: the WSDL's endpoint address says `https`.
    tls: bool,
    /// `GetMyGames` per player (`limits.xfcc_fetches_per_minute`, with a burst).
    fetches: Arc<KeyedBudget>,
    /// `MakeAMove` per player, as a line-protocol session's commands
    /// (`limits.commands_per_minute`).
    moves: Arc<KeyedBudget>,
}

/// Players whose call budgets are held at once, at most (the keys are players who logged in).
const MAX_BUDGETS: usize = 65_536;

/// XFCC's routes, bodies limited to `max_body` bytes.
pub fn routes(ctx: Arc<Context>, max_body: usize, tls: bool) -> Router {
    let mut router = Router::new();
    for path in PATHS {
        router = router.route(path, get(describe).post(call));
    }
    let limits = &ctx.config.limits;
    let fetches = Arc::new(KeyedBudget::new(
        limits.xfcc_fetches_per_minute,
        limits.xfcc_fetch_burst(),
        MAX_BUDGETS,
    ));
    let moves = Arc::new(KeyedBudget::new(
        limits.commands_per_minute,
        limits.commands_per_minute,
        MAX_BUDGETS,
    ));
    router
        .with_state(Xfcc {
            ctx,
            tls,
            fetches,
            moves,
        })
        .layer(DefaultBodyLimit::max(max_body))
}

fn xml(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/xml; charset=utf-8")],
        body,
    )
        .into_response()
}

/// `GET ?wsdl` (any case): the service description.
async fn describe(
    State(x): State<Xfcc>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    if !query.is_some_and(|q| q.eq_ignore_ascii_case("wsdl")) {
        return (
            StatusCode::BAD_REQUEST,
            "GET ?wsdl for the service description; POST SOAP 1.1 envelopes here\n",
        )
            .into_response();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_graphic()))
        .unwrap_or("localhost");
    let scheme = if x.tls { "https" } else { "http" };
    xml(
        StatusCode::OK,
        wsdl::wsdl(&format!("{scheme}://{host}{}", PATHS[0])),
    )
}

/// A SOAP call.
async fn call(
    State(x): State<Xfcc>,
    peer: Option<axum::Extension<PeerAddr>>,
    body: Bytes,
) -> Response {
    let peer = peer.map_or_else(
        || "unknown".to_owned(),
        |p| crate::limiter::address_key(p.0.0.ip()),
    );
    let call = match soap::read(&body) {
        Ok(call) => call,
        Err(e) => {
            tracing::debug!(%peer, error = %Logged(&e.to_string()), "XFCC request refused");
            return xml(
                StatusCode::INTERNAL_SERVER_ERROR,
                soap::fault(true, &e.to_string()),
            );
        }
    };
    match call.operation.as_str() {
        "GetMyGames" => get_my_games(&x, &peer, &call).await,
        "MakeAMove" => {
            let result = make_a_move(&x, &peer, &call).await;
            xml(StatusCode::OK, soap::response("MakeAMove", result.as_str()))
        }
        other => xml(
            StatusCode::INTERNAL_SERVER_ERROR,
            soap::fault(
                true,
                &format!("no operation {other:?} (GetMyGames and MakeAMove are served)"),
            ),
        ),
    }
}

/// The player the call's username and password name, if the password is theirs and neither
/// the address nor the player is over the limit on failed logins. XFCC sends the password with
/// every call: a right one is remembered for a few minutes, so a call costs Argon2 only now
/// and then, and only failures count against the limit. Failures are logged without the
/// password.
async fn authenticate(x: &Xfcc, peer: &str, call: &Call) -> Option<String> {
    let player = call.field("username").unwrap_or("").trim().to_owned();
    let secret = call.field("password").unwrap_or("").to_owned();
    match x.ctx.log_in_player(peer, &player, secret).await {
        Ok(_) => Some(player),
        Err(refusal) => {
            tracing::warn!(%peer, player = %Logged(&player), "XFCC {refusal}");
            None
        }
    }
}

async fn get_my_games(x: &Xfcc, peer: &str, call: &Call) -> Response {
    let Some(player) = authenticate(x, peer, call).await else {
        return xml(
            StatusCode::INTERNAL_SERVER_ERROR,
            soap::fault(true, "AuthenticationFailed"),
        );
    };
    if !x.fetches.spend(&player) {
        let per_minute = x.ctx.config.limits.xfcc_fetches_per_minute;
        return xml(
            StatusCode::INTERNAL_SERVER_ERROR,
            soap::fault(
                false,
                &format!(
                    "ServerError: too many GetMyGames calls; at most {per_minute} a minute \
                     after a burst (set the client to fetch less often)"
                ),
            ),
        );
    }
    match chess_games_of(&x.ctx.relay, &player).await {
        Ok(views) => {
            let games: String = views.iter().map(game_xml).collect();
            xml(StatusCode::OK, soap::response("GetMyGames", &games))
        }
        Err(reply) => xml(
            StatusCode::INTERNAL_SERVER_ERROR,
            soap::fault(false, &format!("ServerError: {}", reply.text)),
        ),
    }
}

/// `player`'s games that XFCC can carry: chess (its clients know no other game).
async fn chess_games_of(relay: &Relay, player: &str) -> Result<Vec<GameView>, Reply> {
    let mut views = relay.games_of(player).await?;
    views.retain(|v| v.kind == Kind::Chess);
    Ok(views)
}

/// XFCC's name for how a game stands.
pub fn result_name(standing: &Standing) -> &'static str {
    match standing {
        Standing::Ongoing => "Ongoing",
        Standing::AwaitingArbiter => "AdjudicationPending",
        Standing::Over { winner, reason } => match (reason, winner) {
            (EndReason::Adjudication, Some(Color::White)) => "WhiteWinAdjudicated",
            (EndReason::Adjudication, Some(Color::Black)) => "BlackWinAdjudicated",
            (EndReason::Adjudication, None) => "DrawAdjudicated",
            (EndReason::Silence | EndReason::Withdrawal, Some(Color::White)) => "BlackDefaulted",
            (EndReason::Silence | EndReason::Withdrawal, Some(Color::Black)) => "WhiteDefaulted",
            (_, Some(Color::White)) => "WhiteWins",
            (_, Some(Color::Black)) => "BlackWins",
            (_, None) => "Draw",
        },
    }
}

/// Days, hours and minutes of `seconds` (none below zero; zero without a limit).
fn dhm(seconds: Option<i64>) -> [i64; 3] {
    let s = seconds.unwrap_or(0).max(0);
    [s / 86_400, s % 86_400 / 3_600, s % 3_600 / 60]
}

fn index(color: Color) -> usize {
    usize::from(color == Color::Black)
}

/// One `XfccGame`, its fields in the WSDL's order.
pub fn game_xml(v: &GameView) -> String {
    let mine = dhm(v.time_left[index(v.color)]);
    let theirs = dhm(v.time_left[index(!v.color)]);
    let text = |s: &str| soap::escape(s);
    let bool_ = |b: bool| if b { "true" } else { "false" }.to_owned();
    let mut fields: Vec<(&str, String)> = vec![
        ("id", text(&v.id)),
        ("white", text(&v.white)),
        ("black", text(&v.black)),
        ("event", text(v.event.as_deref().unwrap_or(""))),
        ("site", text(v.site.as_deref().unwrap_or(""))),
        ("myTurn", bool_(v.my_turn())),
        ("hasWhite", bool_(v.color == Color::White)),
        ("daysPlayer", mine[0].to_string()),
        ("hoursPlayer", mine[1].to_string()),
        ("minutesPlayer", mine[2].to_string()),
        ("daysOpponent", theirs[0].to_string()),
        ("hoursOpponent", theirs[1].to_string()),
        ("minutesOpponent", theirs[2].to_string()),
        ("moves", text(&v.movetext)),
        // The offer the player can accept: the opponent's.
        ("drawOffered", bool_(v.draw_offer == Some(!v.color))),
        ("result", result_name(&v.standing).to_owned()),
    ];
    if let Some(started) = v.started {
        fields.push(("eventDate", started.strftime("%Y-%m-%d").to_string()));
    }
    fields.push(("timeControl", text(&v.time_control.to_pgn())));
    fields.push(("setup", bool_(v.start_fen.is_some())));
    if let Some(fen) = &v.start_fen {
        fields.push(("fen", text(fen)));
    }
    fields.push(("message", text(v.opponent_message.as_deref().unwrap_or(""))));
    if let Some(round) = &v.round {
        fields.push(("round", text(round)));
    }
    fields.push((
        "serverInfo",
        text(concat!("ccrelay ", env!("CARGO_PKG_VERSION"))),
    ));
    let mut out = String::from("<XfccGame>");
    for (name, value) in fields {
        out.push_str(&format!("<{name}>{value}</{name}>"));
    }
    out.push_str("</XfccGame>");
    out
}

/// `MakeAMoveResult`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveResult {
    Success,
    ServerError,
    AuthenticationFailed,
    InvalidGameId,
    NotYourGame,
    NotYourTurn,
    InvalidMoveNumber,
    InvalidMove,
    NoDrawWasOffered,
    LostOnTime,
    YouAreOnLeave,
    MoveIsAmbiguous,
    FeatureUnavailable,
}

impl MoveResult {
    /// The name on the wire, spelled as the clients match it.
    pub fn as_str(self) -> &'static str {
        match self {
            MoveResult::Success => "Success",
            MoveResult::ServerError => "ServerError",
            MoveResult::AuthenticationFailed => "AuthenticationFailed",
            MoveResult::InvalidGameId => "InvalidGameID",
            MoveResult::NotYourGame => "NotYourGame",
            MoveResult::NotYourTurn => "NotYourTurn",
            MoveResult::InvalidMoveNumber => "InvalidMoveNumber",
            MoveResult::InvalidMove => "InvalidMove",
            MoveResult::NoDrawWasOffered => "NoDrawWasOffered",
            MoveResult::LostOnTime => "LostOnTime",
            MoveResult::YouAreOnLeave => "YouAreOnLeave",
            MoveResult::MoveIsAmbiguous => "MoveIsAmbigous",
            MoveResult::FeatureUnavailable => "FeatureUnavailable",
        }
    }
}

impl MoveResult {
    /// Every result, for reading one back.
    pub const ALL: [MoveResult; 13] = [
        MoveResult::Success,
        MoveResult::ServerError,
        MoveResult::AuthenticationFailed,
        MoveResult::InvalidGameId,
        MoveResult::NotYourGame,
        MoveResult::NotYourTurn,
        MoveResult::InvalidMoveNumber,
        MoveResult::InvalidMove,
        MoveResult::NoDrawWasOffered,
        MoveResult::LostOnTime,
        MoveResult::YouAreOnLeave,
        MoveResult::MoveIsAmbiguous,
        MoveResult::FeatureUnavailable,
    ];

    /// The result a server named: its wire name ([`MoveResult::as_str`]), and the ambiguous
    /// move spelled right too, since a server may have corrected the WSDL's spelling.
    pub fn from_name(name: &str) -> Option<MoveResult> {
        let name = name.trim();
        if name == "MoveIsAmbiguous" {
            return Some(MoveResult::MoveIsAmbiguous);
        }
        MoveResult::ALL.into_iter().find(|r| r.as_str() == name)
    }
}

/// An XML Schema boolean; absent or empty is false.
fn flag(call: &Call, name: &str) -> Option<bool> {
    match call.field(name).map(str::trim) {
        None | Some("" | "false" | "0") => Some(false),
        Some("true" | "1") => Some(true),
        Some(_) => None,
    }
}

/// What a `MakeAMove` asks, read from its fields.
struct MoveRequest {
    game: String,
    resign: bool,
    accept_draw: bool,
    offer_draw: bool,
    claim_draw: bool,
    movecount: Option<u32>,
    my_move: Option<String>,
    message: Option<String>,
}

/// The call's `myMessage` as written, trimmed, if it has any words. It is never a reason to
/// refuse the call: the relay mends it for its reader ([`crate::command::text::mend`]: Scid's
/// box holds several lines) and records that it did.
pub fn written_message(call: &Call) -> Option<&str> {
    call.field("myMessage")
        .map(str::trim)
        .filter(|said| !said.is_empty())
}

impl MoveRequest {
    /// The request's fields; `None` if a flag or the move number is not one.
    fn read(call: &Call) -> Option<MoveRequest> {
        let nonempty = |name: &str| {
            call.field(name)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        Some(MoveRequest {
            game: nonempty("gameId").unwrap_or_default(),
            resign: flag(call, "resign")?,
            accept_draw: flag(call, "acceptDraw")?,
            offer_draw: flag(call, "offerDraw")?,
            claim_draw: flag(call, "claimDraw")?,
            movecount: match nonempty("movecount") {
                None => None,
                Some(n) => Some(n.parse().ok()?),
            },
            my_move: nonempty("myMove"),
            message: written_message(call).map(str::to_owned),
        })
    }
}

async fn make_a_move(x: &Xfcc, peer: &str, call: &Call) -> MoveResult {
    let Some(player) = authenticate(x, peer, call).await else {
        return MoveResult::AuthenticationFailed;
    };
    if !x.moves.spend(&player) {
        tracing::warn!(player = %Logged(&player), "XFCC MakeAMove refused: over the commands a minute");
        return MoveResult::ServerError;
    }
    let Some(request) = MoveRequest::read(call) else {
        return MoveResult::InvalidMove;
    };
    let sender = Sender {
        player: player.clone(),
        admin: false,
        channel: Channel::Http,
    };
    let relay = &x.ctx.relay;
    let views = match chess_games_of(relay, &player).await {
        Ok(views) => views,
        Err(reply) => {
            tracing::warn!(error = %reply.text, "XFCC: the relay did not answer");
            return MoveResult::ServerError;
        }
    };
    let Some(view) = views.into_iter().find(|v| v.id == request.game) else {
        // Not one of the player's games: does it exist at all?
        let shown = relay
            .call(Request::new(sender, Command::Show { game: request.game }))
            .await;
        return match shown.status {
            // A game of the player's that XFCC cannot carry (not chess) is no game to it.
            Status::NotFound | Status::BadCommand | Status::Done => MoveResult::InvalidGameId,
            Status::Forbidden => MoveResult::NotYourGame,
            _ => MoveResult::ServerError,
        };
    };
    if let Standing::Over { winner, reason } = &view.standing {
        let on_time = matches!(reason, EndReason::TimeForfeit | EndReason::Silence);
        return if on_time && *winner == Some(!view.color) {
            MoveResult::LostOnTime
        } else {
            MoveResult::NotYourTurn
        };
    }
    let game = view.id.clone();
    let number = |n: u32| MoveNumber {
        number: n,
        black: view.color == Color::Black,
    };
    let command = if request.resign {
        Command::Resign { game }
    } else if request.accept_draw {
        if view.draw_offer != Some(!view.color) {
            return MoveResult::NoDrawWasOffered;
        }
        Command::AcceptDraw { game }
    } else if request.claim_draw || request.my_move.is_some() || request.offer_draw {
        if !view.my_turn() {
            return MoveResult::NotYourTurn;
        }
        if let Some(count) = request.movecount
            && request.my_move.is_some()
            && count != view.move_number
        {
            return MoveResult::InvalidMoveNumber;
        }
        if request.claim_draw {
            return claim(x, &sender, &view, &request, number).await;
        }
        let Some(text) = request.my_move.clone() else {
            // A draw offer goes with a move.
            return MoveResult::InvalidMove;
        };
        Command::Move {
            game,
            line: MoveLine {
                number: request.movecount.map(number),
                text,
                marks: Marks {
                    draw_offer: request.offer_draw,
                    ..Marks::default()
                },
                repeat: None,
            },
        }
    } else if let Some(written) = &request.message {
        let Some(alone) = mended_message(sender, &game, written) else {
            tracing::info!(player = %Logged(&player), "XFCC MakeAMove: nothing readable in the message alone");
            return MoveResult::InvalidMove;
        };
        return outcome(&view, relay.call(alone.request).await);
    } else {
        return MoveResult::InvalidMove;
    };
    let relay_request = Request::new(sender, command).message(request.message.clone());
    let reply = relay.call(relay_request).await;
    let result = outcome(&view, reply);
    let lang = x.ctx.relay.roster().with(&player, |p| p.lang).flatten();
    match &request.my_move {
        Some(text) if result == MoveResult::InvalidMove && view.is_ambiguous(text, lang) => {
            MoveResult::MoveIsAmbiguous
        }
        _ => result,
    }
}

/// A draw claim by repetition or by the fifty-move rule, whichever holds, on the position now
/// or after the move sent with it.
async fn claim(
    x: &Xfcc,
    sender: &Sender,
    view: &GameView,
    request: &MoveRequest,
    number: impl Fn(u32) -> MoveNumber,
) -> MoveResult {
    let with = request.my_move.as_ref().map(|text| NumberedMove {
        number: request.movecount.map(&number),
        text: text.clone(),
    });
    let mut last = MoveResult::InvalidMove;
    for kind in [Claim::Repetition, Claim::FiftyMoves] {
        let command = Command::Claim {
            game: view.id.clone(),
            claim: kind,
            with: with.clone(),
        };
        let relay_request = Request::new(sender.clone(), command).message(request.message.clone());
        let reply = x.ctx.relay.call(relay_request).await;
        last = match outcome(view, reply) {
            // The game's state refused the claim: the rule does not hold.
            MoveResult::NotYourTurn => MoveResult::InvalidMove,
            other => other,
        };
        if last == MoveResult::Success {
            break;
        }
    }
    last
}

/// What the relay's reply means to an XFCC client. The conditions XFCC names apart (turn,
/// move number, draw offer, time) are checked on the game as the player sees it before the
/// command is sent; a refusal here comes from the game changing in between.
fn outcome(view: &GameView, reply: Reply) -> MoveResult {
    match reply.status {
        s if s.is_success() => MoveResult::Success,
        Status::NotFound => MoveResult::InvalidGameId,
        Status::Forbidden => MoveResult::NotYourGame,
        Status::BadMove | Status::BadCommand => MoveResult::InvalidMove,
        Status::Refused => MoveResult::NotYourTurn,
        _ => {
            tracing::warn!(game = %view.id, reply = %reply.text, "XFCC: the relay did not record");
            MoveResult::ServerError
        }
    }
}
