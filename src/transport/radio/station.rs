//! Players by APRS message on a `[[radio]]` port with `aprs = true`: the task that reads the
//! messages addressed to the station's callsign, acknowledges every copy heard, checks each
//! message's card code at the one login door, applies it once (through the relay, as a
//! session's command) and answers; and that sends the relay's outbox items for those players
//! as APRS messages, resent until acknowledged (docs/radio.md, "A player by APRS message").
//!
//! Once, through a restart: a message's key is a digest of its sender, id and text (its
//! one-time code included, so no two real messages share one). The code is written as used,
//! with that key, only after the relay answered; the acknowledgement goes after that, so a
//! radio resends what a crash interrupted, and a copy heard again (a digipeater's, a resend
//! after a lost ack, after a restart) finds its code used by the same key and is only
//! acknowledged. A move's request carries the key too: a crash between the relay's commit and
//! the code's line finds the move with [`Mailbox::seen`](crate::relay::Mailbox::seen).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use tokio::sync::broadcast::error::RecvError;

use super::answers::{self, Flight};
use super::aprs::Aprs;
use super::ax25::{Callsign, PID_NO_L3, UiFrame};
use super::card::{self, CardKey};
use super::port::{PortHandle, Ports};
use super::store::Store;
use super::words::{self, Asked};
use crate::auth::gate::Refusal;
use crate::config::{AprsSettings, Player, RadioConfig, Reach};
use crate::relay::{Channel, Request, Sender};
use crate::transport::context::Context;

/// The destination (tocall) of what the relay sends: APRS's block for experimental software.
const TOCALL: &str = "APZCCR";
/// How long a copy of a message answered is known without looking at the store.
const COPIES_KNOWN_FOR: Duration = Duration::from_secs(1800);
/// How often the outbox is read for radio players, and resends are looked at.
const TICK: Duration = Duration::from_millis(500);
/// Outbox items read at once a player.
const ITEMS_AT_ONCE: usize = 16;

/// Starts a station on each port with `aprs = true`. A port whose card key or store cannot
/// be opened is left without one, logged.
pub fn spawn_all(ctx: &Arc<Context>, configs: &[RadioConfig], ports: &Ports) {
    for config in configs {
        let (Some(settings), Some(port)) = (&config.aprs, ports.get(&config.id)) else {
            continue;
        };
        let data_dir = &ctx.config.data_dir;
        let key = match CardKey::load_or_create(data_dir) {
            Ok(key) => key,
            Err(e) => {
                tracing::error!(radio = %config.id, error = %e, "APRS players disabled");
                continue;
            }
        };
        let store = match Store::open(data_dir, &config.id) {
            Ok(store) => store,
            Err(e) => {
                tracing::error!(radio = %config.id, error = %e, "APRS players disabled: their store");
                continue;
            }
        };
        let station = Station {
            ctx: ctx.clone(),
            port: port.clone(),
            id: config.id.clone(),
            settings: settings.clone(),
            key,
            store,
            tocall: Callsign::new(TOCALL, 0).expect("a valid tocall"),
            copies: HashMap::new(),
            flights: HashMap::new(),
        };
        ctx.tracker.spawn(station.run());
    }
}

struct Station {
    ctx: Arc<Context>,
    port: PortHandle,
    id: String,
    settings: AprsSettings,
    key: CardKey,
    store: Store,
    tocall: Callsign,
    /// Messages handled lately, by key: a copy is let go at once.
    copies: HashMap<String, Instant>,
    /// The message on its way to each callsign (one at a time, in order).
    flights: HashMap<String, Flight>,
}

/// What became of a message.
enum Outcome {
    /// Applied or answered: acknowledge it, and tell the player this.
    Answer(String),
    /// A copy of one handled before: acknowledge it only.
    Copy,
    /// The relay could not settle it now: no acknowledgement, so the radio sends it again.
    Later,
}

impl Station {
    async fn run(mut self) {
        let mut heard = self.port.heard();
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tracing::info!(radio = %self.id, waiting = self.store.waiting(), "APRS players served");
        loop {
            tokio::select! {
                () = self.ctx.shutdown.cancelled() => return,
                frame = heard.recv() => match frame {
                    Ok(frame) => self.hear(&frame).await,
                    Err(RecvError::Lagged(n)) => tracing::warn!(radio = %self.id, missed = n, "frames missed"),
                    Err(RecvError::Closed) => return,
                },
                _ = tick.tick() => {
                    self.collect().await;
                    self.send_due();
                }
            }
        }
    }

    fn player_of(&self, callsign: &str) -> Option<Player> {
        self.ctx
            .relay
            .roster()
            .snapshot()
            .values()
            .find(|p| {
                p.reach == Reach::Radio && p.radio.as_ref().is_some_and(|r| r.callsign == callsign)
            })
            .cloned()
    }

    async fn hear(&mut self, frame: &UiFrame) {
        let from = frame.source.to_string();
        if let Some(flight) = self.flights.get_mut(&from) {
            flight.heard(Instant::now());
        }
        if frame.pid != PID_NO_L3 {
            return;
        }
        let me = self.port.callsign.to_string();
        match Aprs::parse(&frame.info) {
            Ok(Aprs::Ack { addressee, id } | Aprs::Rej { addressee, id }) if addressee == me => {
                match self.store.acknowledged(&from, &id) {
                    Ok(true) => {
                        self.flights.remove(&from);
                        self.send_due();
                    }
                    Ok(false) => {}
                    Err(e) => tracing::error!(radio = %self.id, error = %e, "APRS store"),
                }
            }
            Ok(Aprs::Message {
                addressee,
                text,
                id,
            }) if addressee == me => {
                self.message(&frame.source, &text, id.as_deref()).await;
            }
            _ => {}
        }
    }

    /// A message to this station from `from`.
    async fn message(&mut self, from: &Callsign, text: &str, id: Option<&str>) {
        let callsign = from.to_string();
        let key = message_key(&callsign, id.unwrap_or(""), text);
        let now = Instant::now();
        self.copies
            .retain(|_, at| now.duration_since(*at) < COPIES_KNOWN_FOR);
        if self.copies.contains_key(&key) {
            self.ack(from, id);
            return;
        }
        let Some(player) = self.player_of(&callsign) else {
            // Not a player: told once, without asking for an acknowledgement.
            self.copies.insert(key, now);
            self.ack(from, id);
            let text = format!("{callsign} plays no game here");
            self.send_once(from, &text);
            return;
        };
        let outcome = self.apply(&player, &callsign, text, &key).await;
        if matches!(outcome, Outcome::Later) {
            return;
        }
        self.copies.insert(key, now);
        self.ack(from, id);
        if let Outcome::Answer(answer) = outcome {
            self.answer(&player, &answer);
        }
    }

    /// Checks the code and applies the words.
    async fn apply(&mut self, player: &Player, callsign: &str, text: &str, key: &str) -> Outcome {
        let (said, code) = words::split_code(text);
        let Some(code) = code else {
            return Outcome::Answer(format!(
                "nothing done: end it with a code from your card ({said} CODE)"
            ));
        };
        if self.store.used_by(&player.id, key).is_some() {
            return Outcome::Copy;
        }
        let store = &self.store;
        let card = card::card_of(&self.ctx.config.data_dir, &player.id);
        let number = self
            .key
            .accepts(&player.id, card, &code, |n| store.is_used(&player.id, n));
        let address = format!("radio:{callsign}");
        match self.ctx.check_code(&address, &player.id, number.is_some()) {
            Ok(()) => {}
            Err(Refusal::TooMany) => {
                return Outcome::Answer("nothing done: too many wrong codes; wait a minute".into());
            }
            Err(_) => {
                return Outcome::Answer(format!(
                    "nothing done: {code} is not a code of your card you may use now"
                ));
            }
        }
        let Some(number) = number else {
            return Outcome::Later;
        };
        let answer = match self.ctx.mailbox.seen(key).await {
            // Applied before a restart, the code's line lost: the record has it.
            Ok(Some(_)) => return self.code_used(player, number, key, Outcome::Copy),
            Ok(None) => self.run_words(player, &said, key).await,
            Err(e) => {
                tracing::warn!(radio = %self.id, error = %e, "record not read: the radio will resend");
                return Outcome::Later;
            }
        };
        match answer {
            Some(answer) => self.code_used(player, number, key, Outcome::Answer(answer)),
            None => Outcome::Later,
        }
    }

    fn code_used(&mut self, player: &Player, number: u32, key: &str, then: Outcome) -> Outcome {
        match self.store.use_code(&player.id, number, key) {
            Ok(()) => then,
            Err(e) => {
                tracing::error!(radio = %self.id, error = %e, "APRS store: the code is not marked");
                then
            }
        }
    }

    /// The player's words carried out; the answer, or `None` when the relay could not settle
    /// them now.
    async fn run_words(&self, player: &Player, said: &str, key: &str) -> Option<String> {
        let asked = match words::read(said) {
            Ok(asked) => asked,
            Err(why) => return Some(format!("nothing done: {why}")),
        };
        let views = match self.ctx.relay.games_of(&player.id).await {
            Ok(views) => views,
            Err(reply) if reply.status.is_final() => return Some(reply.text),
            Err(_) => return None,
        };
        let (games, under_way) = answers::numbered(&player.id, &views);
        let command = match words::command(&asked, &games) {
            Ok(Some(command)) => command,
            Ok(None) if asked == Asked::Games => return Some(answers::games(&under_way)),
            Ok(None) => {
                return Some(match words::shown(&asked, &games) {
                    Ok((n, game)) => under_way.iter().find(|v| v.id == game.id).map_or_else(
                        || "no such game".into(),
                        |v| answers::show(n, v, player.written_notation()),
                    ),
                    Err(why) => why,
                });
            }
            Err(why) => return Some(format!("nothing done: {why}")),
        };
        let sender = Sender {
            player: player.id.clone(),
            admin: false,
            channel: Channel::Radio,
        };
        let request = Request::read_from(sender, command, said).key(Some(key.to_owned()));
        let reply = self.ctx.relay.call(request).await;
        if !reply.status.is_final() {
            return None;
        }
        Some(answers::item_text(&reply.text, &games))
    }

    /// Queues `text` to `player`, durably, resent until acknowledged.
    fn answer(&mut self, player: &Player, text: &str) {
        let Some(radio) = &player.radio else { return };
        let texts = answers::texts(text, radio.width);
        if let Err(e) = self.store.push(&radio.callsign, &texts) {
            tracing::error!(radio = %self.id, error = %e, "APRS store: an answer is not kept");
        }
        self.send_due();
    }

    fn ack(&self, to: &Callsign, id: Option<&str>) {
        if let Some(id) = id {
            let ack = Aprs::Ack {
                addressee: to.to_string(),
                id: id.to_owned(),
            };
            if self.port.send(self.tocall.clone(), ack.encode()).is_err() {
                tracing::debug!(radio = %self.id, "radio queue full: the radio will resend");
            }
        }
    }

    /// A message sent once, without an id (nothing to acknowledge, nothing kept).
    fn send_once(&self, to: &Callsign, text: &str) {
        for text in answers::texts(text, super::aprs::TEXT_MAX)
            .into_iter()
            .take(1)
        {
            let message = Aprs::Message {
                addressee: to.to_string(),
                text,
                id: None,
            };
            let _ = self.port.send(self.tocall.clone(), message.encode());
        }
    }

    /// Sends what is due: each callsign's oldest message waiting, on its schedule.
    fn send_due(&mut self) {
        let now = Instant::now();
        let (retries, first) = (self.settings.retries, self.settings.retry_after);
        let mut out = Vec::new();
        for waiting in self.store.first_for_each() {
            let flight = self
                .flights
                .entry(waiting.callsign.clone())
                .or_insert_with(|| Flight::new(waiting.number, now));
            if flight.number != waiting.number {
                *flight = Flight::new(waiting.number, now);
            }
            if flight.due(now, retries, first) {
                out.push(Aprs::Message {
                    addressee: waiting.callsign.clone(),
                    text: waiting.text.clone(),
                    id: Some(waiting.id()),
                });
            }
        }
        for message in out {
            if self
                .port
                .send(self.tocall.clone(), message.encode())
                .is_err()
            {
                tracing::debug!(radio = %self.id, "radio queue full: sent on the next resend");
            }
        }
    }

    /// Moves the relay's outbox items for radio players into the store, as their texts, and
    /// acknowledges them to the relay once kept.
    async fn collect(&mut self) {
        let players: Vec<Player> = self
            .ctx
            .relay
            .roster()
            .snapshot()
            .values()
            .filter(|p| p.reach == Reach::Radio && p.radio.is_some())
            .cloned()
            .collect();
        for player in players {
            let items = match self.ctx.mailbox.waiting(&player.id, 0, ITEMS_AT_ONCE).await {
                Ok(items) if items.is_empty() => continue,
                Ok(items) => items,
                Err(e) => {
                    tracing::warn!(radio = %self.id, error = %e, "outbox not read");
                    continue;
                }
            };
            let views = self
                .ctx
                .relay
                .games_of(&player.id)
                .await
                .unwrap_or_default();
            let (games, _) = answers::numbered(&player.id, &views);
            let Some(radio) = &player.radio else { continue };
            let mut upto = None;
            for item in &items {
                let line = self.ctx.mailbox.render(item);
                let texts = answers::texts(&answers::item_text(&line, &games), radio.width);
                if let Err(e) = self.store.push(&radio.callsign, &texts) {
                    tracing::error!(radio = %self.id, error = %e, "APRS store: outbox item kept in the relay");
                    break;
                }
                upto = Some(item.id);
            }
            if let Some(upto) = upto
                && let Err(e) = self.ctx.mailbox.acknowledge(&player.id, upto).await
            {
                tracing::warn!(radio = %self.id, error = %e, "outbox not acknowledged: items sent again");
            }
        }
    }
}

/// A message's key: its sender, id and text (with its one-time code), digested.
fn message_key(callsign: &str, id: &str, text: &str) -> String {
    let digest = Sha256::new()
        .chain_update(b"aprs\0")
        .chain_update(callsign.as_bytes())
        .chain_update(b"\0")
        .chain_update(id.as_bytes())
        .chain_update(b"\0")
        .chain_update(text.as_bytes())
        .finalize();
    format!("aprs:{}", hex::encode(&digest[..16]))
}
