//! The one router: a request's command goes to its family's handler here, and nowhere else.
//! Before it does, the clock acts on the game (a move after its side's time ran out is too
//! late), a command in a game the other node of a link keeps goes there as a proposal, and an
//! action made on another node is recorded at the time it was made there; after, a refusal of
//! that node's action is journaled, which is what carries it back.

use jiff::Timestamp;

use super::{
    clock, conditional, event_lists, events, games, leave, link, messages, moves, notify, offers,
    players, ratings, results, special_leave,
};
use crate::command::Command;
use crate::game::Action;
use crate::journal::replay::GameStartDetail;
use crate::relay::link_role::LinkRole;
use crate::relay::pending::Pending;
use crate::relay::recorder::whole_seconds;
use crate::relay::reply::{Channel, Reply, Status};
use crate::relay::request::Request;
use crate::relay::state::{Refused, State, goes_as_proposal};

/// Handles a request and, once its command is carried out, the message sent with it: the
/// reply waits for both to be committed (commits are in order, so the later covers both).
pub(in crate::relay) async fn handle_with_message(
    state: &mut State,
    mut request: Request,
) -> Pending {
    let message = request.message.take();
    let pending = handle(state, &request).await;
    match (message, request.command.game()) {
        (Some(written), Some(game)) => {
            messages::riding(state, &request, game, &written, pending).await
        }
        _ => pending,
    }
}

/// Handles a request's command (without the message riding with it).
pub(in crate::relay) async fn handle(state: &mut State, request: &Request) -> Pending {
    state.recorder.catch_up();
    let command = &request.command;
    // The clock acts first: a move that comes after its side's time ran out is too late.
    if let Some(game) = command.game() {
        clock::settle(state, game).await;
    }
    if let Some(game) = command.game()
        && let Some(role) = state.role(game)
    {
        match (role, request.channel == Channel::Link) {
            (LinkRole::Replica { .. }, false) if goes_as_proposal(command) => {
                return link::propose(state, request, game).await;
            }
            (LinkRole::Replica { .. }, true) if !matches!(command, Command::PeerRefused { .. }) => {
                return Pending::Now(Reply::new(
                    Status::Refused,
                    format!("this node does not keep game {game}'s record: the other node does"),
                ));
            }
            _ => {}
        }
    }
    // An action another node made: recorded at the time it was made there.
    let saved = state.recorder.now;
    if let (Some(age), Some(game)) = (request.age, command.game()) {
        let at = state
            .recorder
            .now
            .checked_sub(age)
            .unwrap_or(Timestamp::UNIX_EPOCH);
        state.recorder.now = state.time_of_proposal(game, whole_seconds(at));
    }
    let mut pending = dispatch(state, request).await;
    // Every refusal of another node's action in a game here is journaled (with the action's
    // id): that is what carries the refusal back to that node, durably. (A refusal of a
    // refusal stays unjournaled: there is no action of that node's.)
    let game = match command {
        Command::PeerRefused { .. } => None,
        _ => command.game(),
    };
    if let (Pending::Now(reply), Some(game), Channel::Link) = (&pending, game, request.channel)
        && reply.status.is_final()
        && !reply.status.is_success()
        && state.games.by_id.contains_key(game)
    {
        let refused = Refused {
            status: reply.status,
            reason: reply.text.clone(),
            said: reply.said.as_deref().cloned(),
        };
        pending = state.refuse(request, game, refused).await;
    }
    state.recorder.now = state.recorder.now.max(saved);
    pending
}

/// The command to its family's handler.
async fn dispatch(state: &mut State, request: &Request) -> Pending {
    // Every text a person wrote, whichever way the command came (a front end that builds
    // commands itself included), passes the one check before anything is applied.
    if let Err(e) = request.command.check_texts() {
        return Pending::Now(Reply::new(Status::BadCommand, e.to_string()));
    }
    match &request.command {
        // What is shown includes moves still being committed: answer once they are on disk.
        Command::Games => {
            let reply = games::list_games(state, request);
            state.after_commit(reply).await
        }
        Command::Show { game } => {
            let reply = games::show(state, request, game);
            state.after_commit(reply).await
        }
        Command::Create {
            game,
            white,
            black,
            kind,
            event,
            fen,
            round,
        } => {
            let kind = kind
                .or_else(|| Some(state.people.events.get(event.as_deref()?)?.game))
                .unwrap_or_default();
            let detail = GameStartDetail {
                kind,
                white: white.clone(),
                black: black.clone(),
                event: event.clone(),
                fen: fen.clone(),
                rules: None,
                round: round.clone(),
                board: None,
                leave: Default::default(),
                authority: Default::default(),
            };
            games::start(state, request, game.clone(), detail).await
        }
        Command::Move { game, line } => moves::play(state, request, game, line.clone()).await,
        Command::OfferDraw { game } => offers::act(state, request, game, Action::OfferDraw).await,
        Command::AcceptDraw { game } => offers::act(state, request, game, Action::AcceptDraw).await,
        Command::DeclineDraw { game } => {
            offers::act(state, request, game, Action::DeclineDraw).await
        }
        Command::Resign { game } => results::resign(state, request, game).await,
        Command::Claim { game, claim, with } => {
            results::claim(state, request, game, *claim, with.clone()).await
        }
        Command::Conditional { game, moves } => {
            conditional::conditional(state, request, game, moves).await
        }
        Command::Leave { first, days } => leave::leave(state, request, *first, *days).await,
        Command::SpecialLeave {
            player,
            first,
            days,
            reason,
        } => special_leave::grant(state, request, player, (*first, *days), reason).await,
        Command::Bank { game, days } => clock::bank(state, request, game, *days).await,
        Command::LongReflection { game } => clock::long_reflection(state, request, game).await,
        Command::Adjudicate {
            game,
            score,
            reason,
        } => results::adjudicate(state, request, game, *score, reason).await,
        Command::Clock { set } => clock::set_clock(state, request, *set).await,
        // Answered by the relay's handle, before it reaches the games.
        Command::Dead { .. } => Pending::Now(Reply::new(
            Status::BadCommand,
            "DEAD is answered by the relay's handle",
        )),
        Command::Receipt { entry } => match state.recorder.journal.ask_receipt(*entry).await {
            Ok(answer) => Pending::Receipt(*entry, answer),
            Err(e) => Pending::Now(Reply::not_recorded(&e)),
        },
        Command::Message { game, text } => {
            messages::message_noted(state, request, game, text).await
        }
        Command::PeerRefused {
            game,
            number,
            reason,
        } => link::peer_refused(state, request, game, *number, reason).await,
        Command::Player { id, action, fields } => {
            players::player(state, request, id, *action, fields).await
        }
        Command::Players => {
            let reply = players::list_players(state, request);
            state.after_commit(reply).await
        }
        Command::WhoAmI => {
            let reply = players::who_am_i(&state.people, request);
            state.after_commit(reply).await
        }
        Command::Secret { secret } => players::own_secret(state, request, secret).await,
        Command::Notify { setting } => notify::set(state, request, setting).await,
        Command::Event { id, action } => events::event(state, request, id, action.clone()).await,
        Command::Events => {
            let reply = event_lists::list_events(state, request);
            state.after_commit(reply).await
        }
        Command::Ratings { player } => {
            let reply = ratings::ratings(state, player.as_deref());
            state.after_commit(reply).await
        }
    }
}
