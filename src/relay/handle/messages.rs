//! Messages: `MSG` to the opponent, journaled and delivered through the outbox like a move,
//! and a message riding with another command (a mail's words around its move), sent once that
//! command is carried out (in a game kept elsewhere, as a proposal of its own).

use crate::command::Command;
use crate::command::text::{self, TextKind};
use crate::journal::entry::Meaning;
use crate::journal::notice::Notice;
use crate::journal::replay::Spoken;
use crate::journal::{NewOutbox, Record};
use crate::relay::handle::link;
use crate::relay::link_role::LinkRole;
use crate::relay::pending::Pending;
use crate::relay::reply::{Channel, Reply, Status};
use crate::relay::request::{MENDED, Request, message_words};
use crate::relay::said::{MessageFate, Said};
use crate::relay::state::State;
use crate::relay::view::index;

/// A message to the opponent: journaled, and delivered through the outbox like a move.
pub(in crate::relay) async fn message(
    state: &mut State,
    request: &Request,
    game_id: &str,
    text: &str,
) -> Pending {
    let color = match state.seat(request, game_id) {
        Ok(color) => color,
        Err(reply) => return Pending::Now(reply),
    };
    let opponent = state.games.by_id[game_id].player(!color).to_owned();
    let said = Meaning::Message {
        text: text.to_owned(),
    };
    let entry = match state.recorder.request_entry(request, game_id, &said) {
        Ok(entry) => entry,
        Err(reply) => return Pending::Now(reply),
    };
    let record = Record {
        entry,
        outbox: vec![NewOutbox::notice(
            &opponent,
            Notice::Message {
                game: game_id.to_owned(),
                from: request.player.clone(),
                text: text.to_owned(),
            },
        )],
    };
    match state.enqueue(vec![record]).await {
        Ok(committed) => Pending::AfterCommit(
            committed,
            Reply::new(
                Status::Done,
                format!("message sent {game_id} to {opponent}"),
            )
            .saying(Said::MessageSent { mended: false }),
        ),
        Err(reply) => Pending::Now(reply),
    }
}

/// [`State::message`], remembering the text as the request's last message in the game once
/// it is queued.
pub(in crate::relay) async fn message_noted(
    state: &mut State,
    request: &Request,
    game_id: &str,
    text: &str,
) -> Pending {
    let pending = message(state, request, game_id, text).await;
    if let Pending::AfterCommit(_, reply) = &pending
        && reply.status.is_success()
        && let Some(color) = state
            .games
            .by_id
            .get(game_id)
            .and_then(|g| g.side_of(&request.player))
    {
        let facts = state.games.notes.entry(game_id.to_owned()).or_default();
        facts.messages[index(color)] = Some(text.to_owned());
        let spoken = Spoken {
            side: color,
            at: state.recorder.now,
            text: text.to_owned(),
        };
        Spoken::add(&mut facts.conversation, spoken);
    }
    pending
}

/// The message `written` that rode with `request`'s command in `game`, sent once the command
/// is carried out (`pending`, its reply, says so). The words never cost the command (DESIGN: a
/// move is refused only for what is wrong with the move): a message the check would refuse is
/// mended, and the record keeps the words as received beside the words delivered.
pub(in crate::relay) async fn riding(
    state: &mut State,
    request: &Request,
    game: &str,
    written: &str,
    pending: Pending,
) -> Pending {
    let mended = text::mend(written, TextKind::Message);
    match pending {
        Pending::AfterCommit(committed, reply)
            if reply.status.is_success() && mended.text.is_empty() =>
        {
            let text = format!(
                "{}\nmessage not sent: nothing readable was left of it",
                reply.text
            );
            let said = with_message(&reply, MessageFate::Empty);
            Pending::AfterCommit(committed, told(reply.status, text, said))
        }
        Pending::AfterCommit(_, reply) if reply.status.is_success() => {
            let command = Command::Message {
                game: game.to_owned(),
                text: mended.text.clone(),
            };
            let message = request.saying(command, message_words(game, written, &mended));
            // In a game another node or a remote server keeps, the words go there as a
            // proposal of their own, as a `MSG` would: journaling them here as the record's
            // would put in this node's copy what the record never had.
            let kept_elsewhere = matches!(state.role(game), Some(LinkRole::Replica { .. }))
                && request.channel != Channel::Link;
            let sent = if kept_elsewhere {
                link::propose(state, &message, game).await
            } else {
                message_noted(state, &message, game, &mended.text).await
            };
            match sent {
                Pending::AfterCommit(committed, sent) if sent.status.is_success() => {
                    let mut text = format!("{}\n{}", reply.text, sent.text);
                    if mended.changed {
                        text.push_str("; ");
                        text.push_str(MENDED);
                    }
                    let fate = MessageFate::Sent {
                        mended: mended.changed,
                    };
                    let said = with_message(&reply, fate);
                    Pending::AfterCommit(committed, told(reply.status, text, said))
                }
                // The command stands; the message could not be sent: say so.
                Pending::AfterCommit(committed, refused) => {
                    let text = format!("{}\nmessage not sent: {}", reply.text, refused.text);
                    let said = with_message(&reply, MessageFate::NotSent(refused.said));
                    Pending::AfterCommit(committed, told(reply.status, text, said))
                }
                other => other,
            }
        }
        other => other,
    }
}

/// What the command's `reply` said, with what became of the message riding with it; `None`
/// when the command's reply says nothing typed.
fn with_message(reply: &Reply, message: MessageFate) -> Option<Said> {
    reply.said.as_deref().map(|command| Said::WithMessage {
        command: Box::new(command.clone()),
        message,
    })
}

/// The reply `text`, saying `said` when there is something typed to say.
fn told(status: Status, text: String, said: Option<Said>) -> Reply {
    let reply = Reply::new(status, text);
    match said {
        Some(said) => reply.saying(said),
        None => reply,
    }
}
