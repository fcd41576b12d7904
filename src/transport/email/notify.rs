//! The mail when it is a player's move (`NOTIFY`, docs/web.md "Mail when it is your move"), for
//! players who play on the web or over a line: one task per player who asked for it reads their
//! notice rows (`notify:<player>`, through [`crate::relay::Mailbox`] like every mail), makes
//! each mail when it is sent, from their games as they then stand, and acknowledges a row only
//! once the SMTP server took its mail (or refused it for good: then it is parked as a dead
//! letter, as the outbound mail is). A row whose move no longer waits (answered meanwhile, the
//! game over), or a digest with no game waiting, is acknowledged without a mail.
//!
//! A mail is in the player's language (the catalogs), with the opponent's move in their
//! notation, the clocks, a link to the game's page on the relay's public address
//! (`[http] public_url`), and the position as a PNG picture shown inline: mail clients show
//! no SVG (Gmail, Outlook), so the board the web pages draw (`web/board.rs`) is rendered to a
//! PNG here (resvg, without fonts: the coordinates, which are text, are left out). Each mail
//! carries a one-click unsubscribe (RFC 8058: `List-Unsubscribe` with the link whose token only
//! this server can make, `List-Unsubscribe-Post: List-Unsubscribe=One-Click`).

use std::collections::HashMap;
use std::sync::Arc;

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, MultiPart, SinglePart};
use shakmaty::Color;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::outbound::{Handled, Outbound, Outgoing, PAGE, builder, root_id};
use crate::catalog::{Key, Tongue};
use crate::command::Notify;
use crate::config::EmailConfig;
use crate::notation::Notation;
use crate::relay::notify::{reader, wanted};
use crate::relay::summary::clock_words;
use crate::relay::{GameView, Message as OutboxMessage, Notice, Status};
use crate::transport::http::web::board::{Drawn, Marks, svg_from};
use crate::transport::unsubscribe::{UnsubscribeKey, link};

/// The picture's side in pixels: a board readable on a phone, a few kilobytes.
pub const PICTURE_PIXELS: u32 = 288;
/// The most games a digest shows pictures of; the others are listed without one.
const PICTURES_IN_A_DIGEST: usize = 8;

/// What the notice tasks share.
#[derive(Clone)]
pub struct Notices {
    pub out: Outbound,
    pub key: Arc<UnsubscribeKey>,
    /// The relay's public address, without its trailing slash.
    pub public_url: String,
}

/// One notice task per player who asked for mail when it is their move: those of the roster
/// at start, and those who ask, change or stop while the relay runs.
pub async fn notify_every_player(notices: Notices, tracker: TaskTracker) {
    let roster = notices.out.relay.roster().clone();
    let mut changes = roster.changes();
    let mut running: HashMap<String, (Notify, CancellationToken)> = HashMap::new();
    let refresh = |ids: Vec<String>, running: &mut HashMap<String, (Notify, CancellationToken)>| {
        let players = roster.snapshot();
        for id in ids {
            let want = players.get(&id).and_then(wanted).cloned();
            if running.get(&id).map(|(how, _)| how) == want.as_ref() {
                continue;
            }
            if let Some((_, stop)) = running.remove(&id) {
                stop.cancel();
                // Stopped (`NOTIFY OFF`, the one-click link, now reached by mail): what was
                // still queued for them is dropped, not mailed later.
                if want.is_none() {
                    tracker.spawn(drop_queued(notices.out.clone(), id.clone()));
                }
            }
            if let Some(setting) = want {
                let stop = notices.out.shutdown.child_token();
                let mut task = notices.clone();
                task.out.shutdown = stop.clone();
                tracker.spawn(task.deliver(id.clone(), setting.clone()));
                running.insert(id, (setting, stop));
            }
        }
    };
    refresh(roster.snapshot().keys().cloned().collect(), &mut running);
    loop {
        tokio::select! {
            change = changes.recv() => match change {
                Ok(id) => refresh(vec![id], &mut running),
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    refresh(roster.snapshot().keys().cloned().collect(), &mut running);
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            },
            () = notices.out.shutdown.cancelled() => return,
        }
    }
}

/// Acknowledges, unmailed, every notice row still queued for `player`, whose mails stopped.
async fn drop_queued(out: Outbound, player: String) {
    let reader = reader(&player);
    loop {
        let page = match out.mailbox.waiting(&reader, 0, PAGE).await {
            Ok(page) => page,
            Err(e) => {
                tracing::warn!(%player, error = %e, "cannot drop the notice mails of a player who stopped them");
                return;
            }
        };
        let Some(last) = page.last() else {
            return;
        };
        if let Err(e) = out.mailbox.acknowledge(&reader, last.id).await {
            tracing::warn!(%player, error = %e, "cannot drop the notice mails of a player who stopped them");
            return;
        }
    }
}

/// A mail to make for a row, or why none is made.
enum Made {
    Mail(Box<Outgoing>, Option<(String, usize)>),
    /// Nothing waits: the row is acknowledged without a mail.
    Nothing,
    /// The relay could not say (stopping, busy): the row waits.
    NotNow(String),
}

impl Notices {
    /// Mails `player`'s notice rows to the address of `setting`, until stopped.
    async fn deliver(self, player: String, setting: Notify) {
        let Some(to) = setting.address().map(str::to_owned) else {
            return;
        };
        let reader = reader(&player);
        // The moves mailed, by game (how many moves it had): a move is mailed once.
        let mut mailed: HashMap<String, usize> = HashMap::new();
        let mut rows = self.out.rows(&reader);
        while let Some(item) = rows.next().await {
            let handled = match self.make(&player, &to, &item, &mailed).await {
                Made::Mail(mail, seen) => {
                    let handled = self
                        .out
                        .send_or_park(&item, &player, *mail, None, true)
                        .await;
                    if let (Handled::Done, Some((game, moves))) = (&handled, seen) {
                        mailed.insert(game, moves);
                    }
                    handled
                }
                Made::Nothing => Handled::Done,
                Made::NotNow(why) => {
                    tracing::warn!(%player, id = item.id, error = %why, "a notice mail not made now; will retry");
                    Handled::Stuck
                }
            };
            if !rows.settle(item.id, handled).await {
                return;
            }
        }
    }

    /// The mail for a row, made from `player`'s games as they stand now.
    async fn make(
        &self,
        player: &str,
        to: &str,
        item: &OutboxMessage,
        mailed: &HashMap<String, usize>,
    ) -> Made {
        let games = match self.out.relay.games_of(player).await {
            Ok(games) => games,
            Err(reply) if reply.status == Status::NotFound => return Made::Nothing,
            Err(reply) => return Made::NotNow(reply.text),
        };
        let (lang, notation) = self
            .out
            .relay
            .roster()
            .with(player, |p| (p.lang, p.notation))
            .unwrap_or((None, Notation::Iccf));
        let unsubscribe = link(&self.public_url, player, &self.key.token(player, to));
        let reading = Reading {
            id: item.id,
            to,
            tongue: Tongue::of(lang),
            notation,
            public_url: &self.public_url,
            unsubscribe: &unsubscribe,
        };
        let built = match &item.notice {
            Notice::YourMove { game } => {
                let Some(view) = games.iter().find(|g| &g.id == game && g.my_turn()) else {
                    return Made::Nothing;
                };
                if mailed.get(game) == Some(&view.moves.len()) {
                    return Made::Nothing;
                }
                your_move_mail(&self.out.email, &reading, view)
                    .map(|mail| (mail, Some((game.clone(), view.moves.len()))))
            }
            Notice::Digest { .. } => {
                let waiting: Vec<&GameView> = games.iter().filter(|g| g.my_turn()).collect();
                if waiting.is_empty() {
                    return Made::Nothing;
                }
                digest_mail(&self.out.email, &reading, &waiting).map(|mail| (mail, None))
            }
            // Nothing else is written for this reader.
            _ => return Made::Nothing,
        };
        match built {
            Ok((mail, seen)) => Made::Mail(Box::new(mail), seen),
            Err(e) => Made::NotNow(e),
        }
    }
}

/// Who a notice mail is for and how they read.
pub struct Reading<'a> {
    /// The outbox row's id: the mail's Message-ID, the same if it is sent again.
    pub id: i64,
    pub to: &'a str,
    pub tongue: Tongue,
    pub notation: Notation,
    pub public_url: &'a str,
    /// The one-click unsubscribe link.
    pub unsubscribe: &'a str,
}

/// The opponent's last move in `notation`, numbered (`12... Nf6`); `None` before the first.
pub fn last_move(view: &GameView, notation: Notation) -> Option<String> {
    let (last, before) = view.moves.split_last()?;
    let mut pos = crate::game::board(view.kind, view.start_fen.as_deref()).ok()?;
    for m in before {
        pos.play(m);
    }
    let dots = if pos.turn() == Color::White {
        "."
    } else {
        "..."
    };
    Some(format!(
        "{}{dots} {}",
        pos.move_number(),
        pos.write(last, notation)
    ))
}

/// The position `view` shows, from the player's side, as a PNG of [`PICTURE_PIXELS`] a side.
pub fn picture(view: &GameView, label: &str) -> Option<Vec<u8>> {
    let drawn = Drawn {
        kind: view.kind,
        fen: &view.fen,
        pieces: &view.pieces,
    };
    let marks = Marks {
        last: view.last_move_squares.clone(),
        check: view.king_in_check,
    };
    let svg = svg_from(&drawn, &marks, label, view.color);
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).ok()?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(PICTURE_PIXELS, PICTURE_PIXELS)?;
    let scale = PICTURE_PIXELS as f32 / tree.size().width();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().ok()
}

/// The game's page on the relay's public address.
fn game_link(public_url: &str, game: &str) -> String {
    format!("{public_url}/play/games/{game}")
}

/// The picture's Content-ID (without its angle brackets), on the relay's domain.
fn picture_id(game: &str, domain: &str) -> String {
    format!("board.{game}@{domain}")
}

/// A game's picture as an inline part, if it could be drawn.
fn picture_part(view: &GameView, tongue: Tongue, domain: &str) -> Option<SinglePart> {
    let label = tongue.say(Key::NotifyBoard, &[("game", (&view.id).into())]);
    let png = picture(view, &label)?;
    let png_type = ContentType::parse("image/png").ok()?;
    Some(Attachment::new_inline(picture_id(&view.id, domain)).body(png, png_type))
}

/// The lines every notice mail ends with: why it came, where to change it, how to stop it.
fn footer(reading: &Reading<'_>) -> (String, String) {
    let settings = format!("{}/play/notify", reading.public_url);
    let why = reading
        .tongue
        .say(Key::NotifyWhy, &[("settings", settings.as_str().into())]);
    (why, reading.tongue.word(Key::NotifyStop))
}

/// The headers of RFC 8058 and RFC 3834, the id, then the parts: a text alternative, and the
/// HTML with its pictures.
fn finish(
    builder: lettre::message::MessageBuilder,
    reading: &Reading<'_>,
    id: String,
    text: String,
    html: String,
    pictures: Vec<SinglePart>,
) -> Result<Outgoing, String> {
    let header = |name: &'static str, value: String| {
        HeaderValue::new(HeaderName::new_from_ascii_str(name), value)
    };
    let mut related = MultiPart::related().singlepart(SinglePart::html(html));
    for part in pictures {
        related = related.singlepart(part);
    }
    let message = builder
        .raw_header(header("Auto-Submitted", "auto-generated".to_owned()))
        .raw_header(header(
            "List-Unsubscribe",
            format!("<{}>", reading.unsubscribe),
        ))
        .raw_header(header(
            "List-Unsubscribe-Post",
            "List-Unsubscribe=One-Click".to_owned(),
        ))
        .message_id(Some(id.clone()))
        .multipart(
            MultiPart::alternative()
                .singlepart(SinglePart::plain(text))
                .multipart(related),
        )
        .map_err(|e| e.to_string())?;
    Ok(Outgoing {
        id,
        to: reading.to.to_owned(),
        bytes: message.formatted(),
    })
}

/// The mail when a move waits for the reader in `view`'s game: what the opponent played (or
/// that the game started), the clocks, the link, the picture.
pub fn your_move_mail(
    email: &EmailConfig,
    reading: &Reading<'_>,
    view: &GameView,
) -> Result<Outgoing, String> {
    let tongue = reading.tongue;
    let game = view.id.as_str();
    let opponent = if view.color == Color::White {
        &view.black
    } else {
        &view.white
    };
    let subject = tongue.say(
        Key::NotifySubject,
        &[
            ("game", game.into()),
            ("white", (&view.white).into()),
            ("black", (&view.black).into()),
        ],
    );
    let subject: String = subject
        .replace(['\r', '\n'], " ")
        .chars()
        .take(200)
        .collect();
    let what = match last_move(view, reading.notation) {
        Some(mv) => tongue.say(
            Key::NotifyMoved,
            &[
                ("opponent", opponent.into()),
                ("move", mv.as_str().into()),
                ("game", game.into()),
            ],
        ),
        None => tongue.say(
            Key::NotifyStarted,
            &[("opponent", opponent.into()), ("game", game.into())],
        ),
    };
    let clocks = view.clocks.as_ref().map(|c| clock_words(tongue, c));
    let url = game_link(reading.public_url, game);
    let open = tongue.say(Key::NotifyOpen, &[("link", url.as_str().into())]);
    let (why, stop) = footer(reading);
    let mut text = format!("{what}\n");
    if let Some(clocks) = &clocks {
        text.push_str(clocks);
        text.push('\n');
    }
    text.push_str(&format!(
        "\n{open}\n\n-- \n{why}\n{stop}: {}\n",
        reading.unsubscribe
    ));
    let picture = picture_part(view, tongue, &email.domain);
    let cid = picture.as_ref().map(|_| picture_id(game, &email.domain));
    let alt = tongue.say(Key::NotifyBoard, &[("game", game.into())]);
    let html = maud::html! {
        (maud::DOCTYPE)
        html lang=(tongue.code()) {
            head { meta charset="utf-8"; title { (subject) } }
            body {
                p { (what) }
                @if let Some(cid) = &cid {
                    p { a href=(url) {
                        img src={ "cid:" (cid) } alt=(alt)
                            width=(PICTURE_PIXELS) height=(PICTURE_PIXELS);
                    } }
                }
                @if let Some(clocks) = &clocks { p { (clocks) } }
                p { a href=(url) { (open) } }
                hr;
                p style="font-size:small;color:#666" {
                    (why) " " a href=(reading.unsubscribe) { (stop) }
                }
            }
        }
    }
    .into_string();
    let id = format!("<ccrelay.o{}.{game}@{}>", reading.id, email.domain);
    let root = root_id(game, &email.domain);
    let builder = builder(email, reading.to, &subject)?
        .in_reply_to(root.clone())
        .references(root);
    finish(
        builder,
        reading,
        id,
        text,
        html,
        picture.into_iter().collect(),
    )
}

/// The daily digest: every game in `waiting`, with the opponent's last move and its link, the
/// first few with their pictures.
pub fn digest_mail(
    email: &EmailConfig,
    reading: &Reading<'_>,
    waiting: &[&GameView],
) -> Result<Outgoing, String> {
    let tongue = reading.tongue;
    let subject = tongue.say(Key::NotifyDigestSubject, &[("count", waiting.len().into())]);
    let line_of = |view: &GameView| match last_move(view, reading.notation) {
        Some(mv) => tongue.say(
            Key::NotifyDigestGame,
            &[
                ("game", (&view.id).into()),
                ("white", (&view.white).into()),
                ("black", (&view.black).into()),
                ("move", mv.as_str().into()),
            ],
        ),
        None => tongue.say(
            Key::NotifyDigestStart,
            &[
                ("game", (&view.id).into()),
                ("white", (&view.white).into()),
                ("black", (&view.black).into()),
            ],
        ),
    };
    let (why, stop) = footer(reading);
    let mut text = format!("{subject}\n\n");
    let mut pictures = Vec::new();
    let mut shown = Vec::new();
    for (i, view) in waiting.iter().enumerate() {
        let line = line_of(view);
        let url = game_link(reading.public_url, &view.id);
        text.push_str(&format!("{line}\n{url}\n\n"));
        let picture = (i < PICTURES_IN_A_DIGEST)
            .then(|| picture_part(view, tongue, &email.domain))
            .flatten();
        let cid = picture
            .as_ref()
            .map(|_| picture_id(&view.id, &email.domain));
        pictures.extend(picture);
        let alt = tongue.say(Key::NotifyBoard, &[("game", (&view.id).into())]);
        shown.push((line, url, cid, alt));
    }
    text.push_str(&format!("-- \n{why}\n{stop}: {}\n", reading.unsubscribe));
    let html = maud::html! {
        (maud::DOCTYPE)
        html lang=(tongue.code()) {
            head { meta charset="utf-8"; title { (subject) } }
            body {
                p { strong { (subject) } }
                @for (line, url, cid, alt) in &shown {
                    p { a href=(url) { (line) } }
                    @if let Some(cid) = cid {
                        p { a href=(url) {
                            img src={ "cid:" (cid) } alt=(alt)
                                width=(PICTURE_PIXELS) height=(PICTURE_PIXELS);
                        } }
                    }
                }
                hr;
                p style="font-size:small;color:#666" {
                    (why) " " a href=(reading.unsubscribe) { (stop) }
                }
            }
        }
    }
    .into_string();
    let subject: String = subject.chars().take(200).collect();
    let id = format!("<ccrelay.o{}@{}>", reading.id, email.domain);
    finish(
        builder(email, reading.to, &subject)?,
        reading,
        id,
        text,
        html,
        pictures,
    )
}

#[cfg(test)]
mod tests;
