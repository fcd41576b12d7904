//! Moves and the simple actions (draw offer, acceptance, decline, resignation): checked against
//! the game, journaled, pushed to the opponent.

use shakmaty::Color;

use crate::command::MoveLine;
use crate::config::Reach;
use crate::game::{Action, Game, Ply};
use crate::journal::notice::{Clocks, MoveData, MoveNotice, Notice};
use crate::journal::{NewOutbox, Record};
use crate::notation::{Lang, Notation};
use crate::relay::pending::Pending;
use crate::relay::render;
use crate::relay::reply::{Channel, Reply, Status};
use crate::relay::request::Request;
use crate::relay::said::Said;
use crate::relay::state::{State, dots};

/// How a move goes on to its opponent, for the log line: `tcp`, `email`, `xfcc`, `link:ID`,
/// or `none` for an opponent the relay does not know.
struct ReachedBy<'a>(Option<&'a Reach>);

impl std::fmt::Display for ReachedBy<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            None => f.write_str("none"),
            Some(Reach::Tcp) => f.write_str("tcp"),
            Some(Reach::Email) => f.write_str("email"),
            Some(Reach::Xfcc) => f.write_str("xfcc"),
            Some(Reach::Radio) => f.write_str("radio"),
            Some(Reach::Link(id)) => write!(f, "link:{id}"),
        }
    }
}

pub(in crate::relay) async fn play(
    state: &mut State,
    request: &Request,
    game_id: &str,
    line: MoveLine,
) -> Pending {
    let color = match state.seat(request, game_id) {
        Ok(color) => color,
        Err(reply) => return Pending::Now(reply),
    };
    let lang = state.people.lang_of(&request.player);
    let game = &state.games.by_id[game_id];
    let mut draw_offer = line.marks.draw_offer;
    if let Some(repeat) = &line.repeat
        && let Err(refusal) = game.check_repeat(repeat, lang)
    {
        return state.refuse(request, game_id, refusal.into()).await;
    }
    let (m, langs) = match game.check_move(color, &line.text, line.number, lang) {
        Ok(read) => {
            draw_offer |= read.draw_offer;
            let langs = game.narrowed_langs(color, lang, &read);
            (read.ply, langs)
        }
        Err(refusal) => {
            state.recorder.moves_counted.count(request.channel, false);
            return state.refuse(request, game_id, refusal.into()).await;
        }
    };
    // A draw offered with the move, before the move the event allows it from: the whole
    // command is refused (the player sends the move again, with or without the offer).
    if draw_offer && let Err(refusal) = game.check_draw_allowed() {
        state.recorder.moves_counted.count(request.channel, false);
        return state.refuse(request, game_id, refusal.into()).await;
    }
    state.recorder.moves_counted.count(request.channel, true);

    let number = game.move_number();
    let iccf = game.board().code(&m);
    let own_text = state.people.written_for(&request.player, game.board(), &m);
    let owner = game.player(!color).to_owned();
    // The move is played on the game itself, taken out of the table meanwhile (no copy of
    // its history a move); `commit_played` puts it back.
    let Some((id, mut game)) = state.games.by_id.remove_entry(game_id) else {
        return Pending::Now(Reply::new(Status::NotFound, format!("no game {game_id:?}")));
    };
    let before = game.result().cloned();
    let mut record = move_record(
        state,
        &mut game,
        color,
        m,
        draw_offer,
        &request.text,
        request.channel,
        false,
    );
    record.entry.key.clone_from(&request.key);
    if let Some(langs) = langs {
        // The player's letters settle further: kept with the game, and in the record so
        // that a restart reads their next move the same way.
        game.set_langs(color, langs);
        record.entry.langs = Some(langs);
    }
    let mut records = vec![record];
    if let Some(answer) = game.conditional_reply() {
        // The opponent's conditional line expected this move: its answer is played at
        // once, at the same instant (it costs no time).
        let answer_iccf = game.board().code(&answer);
        let played = Box::new(MoveData::of(&game, &answer));
        let mut answer_record = move_record(
            state,
            &mut game,
            !color,
            answer,
            false,
            &format!("conditional {answer_iccf}"),
            Channel::Conditional,
            true,
        );
        let left = game.conditional(!color).len() / 2;
        answer_record.outbox.push(NewOutbox::notice(
            &owner,
            Notice::LinePlayed {
                game: game_id.to_owned(),
                mv: played,
                left: u32::try_from(left).unwrap_or(u32::MAX),
            },
        ));
        records.push(answer_record);
    }
    // `accepted g1 12... Nf6 (7866); clock: ...`, appended rather than formatted: a reply
    // goes out for every move.
    let said = Said::Moved {
        number,
        color,
        written: render::with_numeric(&own_text, &iccf),
        draw_offer,
    };
    let mut reply = String::with_capacity(192);
    reply.push_str("accepted ");
    reply.push_str(game_id);
    reply.push(' ');
    reply.push_str(itoa::Buffer::new().format(number));
    reply.push_str(dots(color));
    reply.push(' ');
    render::push_with_numeric(&mut reply, &own_text, &iccf);
    if draw_offer {
        reply.push_str(", draw offered");
    }
    if let Some(clocks) = Clocks::of(&game, state.recorder.now) {
        reply.push_str("; ");
        render::push_clocks(&mut reply, &clocks);
    }
    state
        .commit_played(request, (id, game), before, records, reply)
        .await
        .saying(said)
}

/// `color`'s move `m`, played on `game`: its record (a move entry, written
/// `written`, arriving by `channel`) with the notice telling the opponent, with both
/// clocks; `from_line` for an answer played from the mover's conditional line.
#[allow(clippy::too_many_arguments)]
pub(in crate::relay) fn move_record(
    state: &State,
    game: &mut Game,
    color: Color,
    m: Ply,
    draw_offer: bool,
    written: &str,
    channel: Channel,
    from_line: bool,
) -> Record {
    let player = game.player(color);
    let opponent = game.player(!color);
    let iccf = game.board().code(&m);
    // One line per move relayed, for the operator: never the text or anything secret.
    tracing::info!(
        game = %game.id,
        ply = game.moves().len() + 1,
        iccf = %iccf,
        from = %player,
        to = %opponent,
        channel_in = %channel,
        channel_out = %ReachedBy(state.people.players.get(opponent).map(|p| &p.reach)),
        "move relayed"
    );
    let mut entry =
        state
            .recorder
            .move_entry(&game.id, player, channel, (iccf, draw_offer), written);
    entry.san = Some(game.board().write(&m, Notation::San(Lang::English)));
    let notice = MoveNotice::before(game, (color, &m), draw_offer, from_line);
    game.apply_by(color, &Action::Move { m, draw_offer }, state.recorder.now);
    let notice = notice.after(game, state.recorder.now);
    Record {
        entry,
        outbox: vec![NewOutbox::move_of_entry(game.player(!color), notice)],
    }
}
