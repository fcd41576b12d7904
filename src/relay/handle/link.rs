//! What a link brings as commands: a command in a game the other node keeps, sent there as a
//! proposal; the other node's refusal of a proposal of ours (`PeerRefused`).

pub(super) use crate::relay::link_role::LinkRole;

use jiff::Timestamp;
use shakmaty::Color;

use crate::command::{Command, MoveLine};
use crate::game::{Action, Game, Refusal};
use crate::journal::entry::Meaning;
use crate::journal::notice::{MoveData, Notice};
use crate::journal::{NewEntry, NewOutbox, Record};
use crate::relay::pending::Pending;
use crate::relay::remote::remote_of;
use crate::relay::reply::{Channel, Reply, Status};
use crate::relay::request::Request;
use crate::relay::said::Said;
use crate::relay::state::{Refused, State};

/// The other node refused an action this node accepted: the record says so, and the
/// player hears it. Only a link may say this.
pub(in crate::relay) async fn peer_refused(
    state: &mut State,
    request: &Request,
    game_id: &str,
    number: u32,
    reason: &str,
) -> Pending {
    if request.channel != Channel::Link {
        return Pending::Now(Reply::new(
            Status::Forbidden,
            "only a link reports refusals",
        ));
    }
    if let Err(reply) = state.seat(request, game_id) {
        return Pending::Now(reply);
    }
    if !matches!(state.role(game_id), Some(LinkRole::Replica { .. })) {
        return Pending::Now(Reply::new(
            Status::Refused,
            format!("this node keeps game {game_id}'s record: the other node cannot refuse in it"),
        ));
    }
    let refused = Meaning::Rejected {
        reason: reason.to_owned(),
    };
    let mut entry = match state.recorder.entry(
        game_id,
        &request.player,
        request.channel,
        &refused,
        &format!("refused by the other node: action {number}"),
    ) {
        Ok(entry) => entry,
        Err(reply) => return Pending::Now(reply),
    };
    entry.key.clone_from(&request.key);
    let notice = Notice::Refused {
        game: game_id.to_owned(),
        number,
        reason: reason.to_owned(),
    };
    let record = Record {
        entry,
        outbox: vec![NewOutbox::notice(&request.player, notice)],
    };
    match state.enqueue(vec![record]).await {
        Ok(committed) => {
            Pending::AfterCommit(committed, Reply::new(Status::Done, "refusal recorded"))
        }
        Err(reply) => Pending::Now(reply),
    }
}

/// A local player's (or the arbiter's) action in a game the other node keeps: checked
/// here as far as this node can (a move's legality, whose turn it is), journaled as a
/// proposal, and sent; it is in the game once the other node's record brings it back,
/// and the player is told then.
pub(in crate::relay) async fn propose(
    state: &mut State,
    request: &Request,
    game_id: &str,
) -> Pending {
    let command = request.command.clone();
    let Some(game) = state.games.by_id.get(game_id) else {
        return Pending::Now(Reply::new(Status::NotFound, format!("no game {game_id:?}")));
    };
    let color = if request.admin {
        None
    } else {
        match state.seat(request, game_id) {
            Ok(color) => Some(color),
            Err(reply) => return Pending::Now(reply),
        }
    };
    if let (Some(why), Some(_)) = (game.stopped(), color) {
        // The records disagree: a player's action would be built on a record this node does
        // not hold. The arbiter's decision still goes to the node that keeps it.
        let refusal = Refusal::Stopped(why.to_owned());
        return state.refuse(request, game_id, Refused::from(refusal)).await;
    }
    let lang = state.people.lang_of(&request.player);
    let mut iccf = None;
    let checked: Result<Command, Refusal> = match (command, color) {
        (Command::Move { game: g, mut line }, Some(color)) => {
            // A draw offered with the move is checked against the game's rules here too.
            let checked = game
                .check_move(color, &line.text, line.number, lang)
                .and_then(|read| {
                    if line.marks.draw_offer || read.draw_offer {
                        game.check_draw_allowed()?;
                    }
                    Ok(read)
                });
            match checked {
                Ok(read) => {
                    let code = game.board().code(&read.ply);
                    line.marks.draw_offer |= read.draw_offer;
                    line.text = code.clone();
                    line.number = None;
                    line.repeat = None;
                    iccf = Some(code);
                    Ok(Command::Move { game: g, line })
                }
                Err(refusal) => Err(refusal),
            }
        }
        (c @ Command::OfferDraw { .. }, Some(color)) => game
            .check(color, &Action::OfferDraw, state.recorder.now)
            .map(|()| c),
        (c @ Command::AcceptDraw { .. }, Some(color)) => game
            .check(color, &Action::AcceptDraw, state.recorder.now)
            .map(|()| c),
        (c @ Command::DeclineDraw { .. }, Some(color)) => game
            .check(color, &Action::DeclineDraw, state.recorder.now)
            .map(|()| c),
        (c @ Command::Resign { .. }, Some(color)) => game
            .check(color, &Action::Resign, state.recorder.now)
            .map(|()| c),
        // The rest is for the keeping node to check.
        (c, _) => Ok(c),
    };
    let command = match checked {
        Ok(command) => command,
        Err(refusal) => return state.refuse(request, game_id, Refused::from(refusal)).await,
    };
    let proposal = Meaning::Proposal {
        command: command.to_string(),
        iccf,
    };
    let entry = match state.recorder.request_entry(request, game_id, &proposal) {
        Ok(entry) => entry,
        Err(reply) => return Pending::Now(reply),
    };
    let record = Record {
        entry,
        outbox: vec![],
    };
    // The player across is on a remote XFCC server, or on another node of a link.
    let keeper = match state.role(game_id) {
        Some(role) if remote_of(&state.people.remotes, role.remote()).is_some() => {
            "the remote server"
        }
        _ => "the other node",
    };
    let reply = format!(
        "sent {game_id}: {command}; {keeper} keeps this game's record, and you will be told when it is in it"
    );
    match state.enqueue(vec![record]).await {
        Ok(committed) => Pending::AfterCommit(
            committed,
            Reply::new(Status::Proposed, reply).saying(Said::Proposed),
        ),
        Err(reply) => Pending::Now(reply),
    }
}

/// The answer the conditional line of this node's player gives to `mover`'s move, just
/// recorded in `after`, in a game the other node keeps: proposed at once, at the move's
/// own time, as its owner would by hand (the line advances when the record brings the
/// answer back, as any move on it does). The owner hears that the line answered.
pub(in crate::relay) fn line_answer(
    state: &State,
    game_id: &str,
    after: &Game,
    mover: Color,
    time: Timestamp,
) -> Option<Record> {
    let answer = after.conditional_reply()?;
    let owner = after.player(!mover);
    if state.people.across_link(owner) {
        return None;
    }
    let code = after.board().code(&answer);
    let proposal = Meaning::Proposal {
        command: Command::Move {
            game: game_id.to_owned(),
            line: MoveLine {
                text: code.clone(),
                ..MoveLine::default()
            },
        }
        .to_string(),
        iccf: Some(code.clone()),
    };
    let mut entry = NewEntry::new(
        game_id,
        owner,
        Channel::Conditional.as_str(),
        proposal.kind(),
        &format!("conditional {code}"),
    );
    entry.time = time;
    if let Err(e) = entry.set_meaning(&proposal) {
        tracing::error!(game = game_id, error = %e, "a conditional answer's proposal not recorded");
        return None;
    }
    let left = after.conditional(!mover).len().saturating_sub(1) / 2;
    let notice = Notice::LinePlayed {
        game: game_id.to_owned(),
        mv: Box::new(MoveData::of(after, &answer)),
        left: u32::try_from(left).unwrap_or(u32::MAX),
    };
    Some(Record {
        entry,
        outbox: vec![NewOutbox::notice(owner, notice)],
    })
}
