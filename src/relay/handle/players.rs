//! Players while the relay runs: the arbiter's `PLAYER ADD|SET|SECRET` and `PLAYERS`, and a
//! player's own `SECRET`. Registrations are journaled (who, when, by whom: the entry's time,
//! player and channel), replayed at start, and published to the transports through the
//! [`Roster`](crate::relay::roster::Roster). A secret is drawn as `ccrelay init` draws them, shown once in the
//! reply, and kept only as its Argon2id hash, outside the record.
//!
//! A player of the configuration keeps its entry there: `PLAYER ADD` refuses their id and
//! `PLAYER SET` sends the arbiter to the file. Their secret can be changed here
//! (`PLAYER SECRET`, `SECRET`): the journal's hash then replaces the file's, and the relay
//! says so in its log at every start.

use crate::command::text::Logged;
use crate::command::{PlayerAction, PlayerFields, RatingSeed};
use crate::config::registered::player_from_keys;
use crate::config::{Player, Reach, valid_id};
use crate::journal::entry::Meaning;
use crate::journal::notice::Notice;
use crate::journal::registry::{PlayerRecord, RatingDetail, SecretDetail};
use crate::journal::{NewOutbox, Record};
use crate::relay::pending::Pending;
use crate::relay::people::People;
use crate::relay::reply::{Reply, Status};
use crate::relay::request::Request;
use crate::relay::roster::{notation_name, reach_name};
use crate::relay::state::State;

/// A player's details as the configuration would name them, for the record.
pub(super) fn record_of(player: &Player, fields: &PlayerFields) -> PlayerRecord {
    PlayerRecord {
        id: player.id.clone(),
        name: player.name.clone(),
        notation: fields
            .notation
            .clone()
            .unwrap_or_else(|| notation_name(player.notation).to_owned()),
        lang: fields.lang.clone(),
        reach: reach_name(&player.reach).to_owned(),
        email: player.email.as_ref().map(|e| e.address.clone()),
        callsign: player.radio.as_ref().map(|r| r.callsign.clone()),
        aprs_width: player
            .radio
            .as_ref()
            .filter(|r| r.width as u64 != crate::config::APRS_WIDTH.1)
            .map(|r| r.width as u32),
    }
}

/// `record` as the `[[players]]` keys it was made from, `fields` written over them.
fn keys_of(record: Option<&PlayerRecord>, fields: &PlayerFields) -> Vec<(&'static str, String)> {
    let mut keys: Vec<(&'static str, String)> = Vec::new();
    let pick = |given: &Option<String>, had: Option<&String>| given.clone().or(had.cloned());
    let r = record;
    // A player who leaves the radio leaves their callsign behind; one given is checked.
    let by_radio = pick(&fields.reach, r.map(|r| &r.reach)).as_deref() == Some("radio");
    let radio = r.filter(|_| by_radio);
    for (key, value) in [
        ("name", pick(&fields.name, r.map(|r| &r.name))),
        ("notation", pick(&fields.notation, r.map(|r| &r.notation))),
        ("lang", pick(&fields.lang, r.and_then(|r| r.lang.as_ref()))),
        ("reach", pick(&fields.reach, r.map(|r| &r.reach))),
        (
            "email",
            pick(&fields.email, r.and_then(|r| r.email.as_ref())),
        ),
        (
            "callsign",
            pick(&fields.callsign, radio.and_then(|r| r.callsign.as_ref())),
        ),
        (
            "aprs_width",
            pick(
                &fields.aprs_width,
                radio
                    .and_then(|r| r.aprs_width.map(|w| w.to_string()))
                    .as_ref(),
            ),
        ),
    ] {
        if let Some(value) = value {
            keys.push((key, value));
        }
    }
    keys
}

/// Hashes a new secret off the relay's thread (Argon2id at its default cost).
async fn hash(secret: &str) -> Result<String, Reply> {
    let secret = secret.to_owned();
    match tokio::task::spawn_blocking(move || crate::auth::hash_secret(&secret)).await {
        Ok(Ok(hash)) => Ok(hash),
        Ok(Err(e)) => Err(Reply::new(
            Status::NotRecorded,
            format!("not recorded: hashing the secret: {e}"),
        )),
        Err(e) => Err(Reply::new(
            Status::NotRecorded,
            format!("not recorded: hashing the secret: {e}"),
        )),
    }
}

/// A new secret and its hash.
async fn new_secret() -> Result<(String, String), Reply> {
    let secret = crate::auth::new_secret().map_err(|e| {
        Reply::new(
            Status::NotRecorded,
            format!("not recorded: no random source: {e}"),
        )
    })?;
    let hash = hash(&secret).await?;
    Ok((secret, hash))
}

/// `PLAYER ADD|SET|SECRET <id> ...` (the admin only).
pub(in crate::relay) async fn player(
    state: &mut State,
    request: &Request,
    id: &str,
    action: PlayerAction,
    fields: &PlayerFields,
) -> Pending {
    if !request.admin {
        return Pending::Now(Reply::new(
            Status::Forbidden,
            "only the arbiter (admin) registers and changes players",
        ));
    }
    let pending = match action {
        PlayerAction::Add => add_player(state, request, id, fields).await,
        PlayerAction::Set => set_player(state, request, id, fields).await,
        PlayerAction::Secret => {
            if id == "admin" {
                return Pending::Now(Reply::new(
                    Status::BadCommand,
                    "the administrator's secret is set in the configuration",
                ));
            }
            if !state.people.players.contains_key(id) {
                return Pending::Now(Reply::new(Status::NotFound, format!("no player {id:?}")));
            }
            match new_secret().await {
                Ok((secret, hash)) => {
                    let reply = Reply::with_secret(
                        Status::Done,
                        format!("new secret for {id} (the old one no longer works): {secret}"),
                    );
                    change_secret(state, request, id, hash, reply).await
                }
                Err(reply) => Err(reply),
            }
        }
    };
    pending.unwrap_or_else(Pending::Now)
}

async fn add_player(
    state: &mut State,
    request: &Request,
    id: &str,
    fields: &PlayerFields,
) -> Result<Pending, Reply> {
    if !valid_id(id) {
        return Err(Reply::new(
            Status::BadCommand,
            format!(
                "{:?} is not a player id (letters, digits, '-', '_', '.'; at most 64)",
                Logged(id)
            ),
        ));
    }
    if id == "admin" || state.people.players.contains_key(id) {
        return Err(Reply::new(
            Status::Refused,
            format!("player {id} exists already"),
        ));
    }
    let (secret, hash) = new_secret().await?;
    let keys = keys_of(None, fields);
    let keys: Vec<(&str, &str)> = keys.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let player = player_from_keys(id, &keys, &hash)
        .map_err(|e| Reply::new(Status::BadCommand, e.to_string()))?;
    state.people.reachable(&player)?;
    let record = record_of(&player, fields);
    let mut entry =
        state
            .recorder
            .request_entry(request, "", &Meaning::PlayerAdd(record.clone()))?;
    entry.credential = Some((id.to_owned(), hash));
    let mut outbox = Vec::new();
    if player.reach == Reach::Email {
        let welcome = Notice::Welcome {
            player: id.to_owned(),
            name: player.name.clone(),
            secret: secret.clone(),
            notation: record.notation.clone(),
        };
        outbox.push(NewOutbox::notice(id, welcome));
    }
    let reply = format!(
        "player {id} registered ({}, {}); secret, shown this once: {secret}",
        record.reach, record.notation
    );
    let committed = state.enqueue(vec![Record { entry, outbox }]).await?;
    state.people.registry.players.insert(id.to_owned(), record);
    state.people.put_player(player);
    Ok(Pending::AfterCommit(
        committed,
        Reply::with_secret(Status::Done, reply),
    ))
}

async fn set_player(
    state: &mut State,
    request: &Request,
    id: &str,
    fields: &PlayerFields,
) -> Result<Pending, Reply> {
    if let Some(seed) = &fields.rating {
        return set_rating(state, request, id, seed).await;
    }
    let Some(before) = state.people.registry.players.get(id).cloned() else {
        return Err(if state.people.players.contains_key(id) {
            Reply::new(
                Status::Refused,
                format!("player {id} is in the configuration: change them there"),
            )
        } else {
            Reply::new(Status::NotFound, format!("no player {id:?}"))
        });
    };
    let hash = state
        .people
        .players
        .get(id)
        .map(|p| p.secret_hash.clone())
        .unwrap_or_default();
    let keys = keys_of(Some(&before), fields);
    let keys: Vec<(&str, &str)> = keys.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut player = player_from_keys(id, &keys, &hash)
        .map_err(|e| Reply::new(Status::BadCommand, e.to_string()))?;
    state.people.reachable(&player)?;
    // The mail they chose when it is their move is theirs, not the arbiter's details.
    player.notify = state.people.players.get(id).and_then(|p| p.notify.clone());
    let merged = PlayerFields {
        notation: fields.notation.clone().or(Some(before.notation.clone())),
        lang: fields.lang.clone().or(before.lang.clone()),
        ..PlayerFields::default()
    };
    let record = record_of(&player, &merged);
    let entry = state
        .recorder
        .request_entry(request, "", &Meaning::PlayerSet(record.clone()))?;
    let committed = state
        .enqueue(vec![Record {
            entry,
            outbox: Vec::new(),
        }])
        .await?;
    let reply = format!(
        "player {id}: {}, {} ({})",
        record.name, record.notation, record.reach
    );
    state.people.registry.players.insert(id.to_owned(), record);
    state.people.put_player(player);
    Ok(Pending::AfterCommit(
        committed,
        Reply::new(Status::Done, reply),
    ))
}

/// `PLAYER SET <id> RATING <rating> RD <deviation> <reason>`: a starting rating for a player
/// of the file or the registry, journaled; the rating list takes it from the start of the
/// period it is given in (docs/ratings.md).
async fn set_rating(
    state: &mut State,
    request: &Request,
    id: &str,
    seed: &RatingSeed,
) -> Result<Pending, Reply> {
    if !state.people.players.contains_key(id) {
        return Err(Reply::new(Status::NotFound, format!("no player {id:?}")));
    }
    let detail = RatingDetail {
        player: id.to_owned(),
        rating: seed.rating,
        deviation: seed.deviation,
        reason: seed.reason.clone(),
    };
    let entry = state
        .recorder
        .request_entry(request, "", &Meaning::RatingSet(detail.clone()))?;
    let at = entry.time;
    let committed = state
        .enqueue(vec![Record {
            entry,
            outbox: Vec::new(),
        }])
        .await?;
    state.people.registry.ratings.push((detail, at));
    let reply = format!(
        "player {id}: rating {}, deviation {}, from the start of this rating period",
        seed.rating, seed.deviation
    );
    Ok(Pending::AfterCommit(
        committed,
        Reply::new(Status::Done, reply),
    ))
}

/// Journals `id`'s new secret `hash` and makes it theirs (their mail key too, for a
/// player registered here).
async fn change_secret(
    state: &mut State,
    request: &Request,
    id: &str,
    hash: String,
    reply: Reply,
) -> Result<Pending, Reply> {
    let secret = Meaning::PlayerSecret(SecretDetail {
        player: id.to_owned(),
    });
    let mut entry = state.recorder.request_entry(request, "", &secret)?;
    entry.credential = Some((id.to_owned(), hash.clone()));
    let committed = state
        .enqueue(vec![Record {
            entry,
            outbox: Vec::new(),
        }])
        .await?;
    if let Some(mut player) = state.people.players.get(id).cloned() {
        let registered = state.people.registry.players.contains_key(id);
        player.secret_hash = hash.clone();
        if registered && let Some(email) = &mut player.email {
            email.token_hash = hash;
        }
        state.people.put_player(player);
    }
    Ok(Pending::AfterCommit(committed, reply))
}

/// A player's own `SECRET <new secret>` (the transport has checked the wire is private).
/// Its text is not recorded: the entry says only that the secret changed.
pub(in crate::relay) async fn own_secret(
    state: &mut State,
    request: &Request,
    secret: &str,
) -> Pending {
    if request.admin {
        return Pending::Now(Reply::new(
            Status::Forbidden,
            "the administrator's secret is set in the configuration",
        ));
    }
    if !state.people.players.contains_key(&request.player) {
        return Pending::Now(Reply::new(
            Status::NotFound,
            format!("no player {:?}", request.player),
        ));
    }
    let hash = match hash(secret).await {
        Ok(hash) => hash,
        Err(reply) => return Pending::Now(reply),
    };
    let request = &request.saying(
        request.command.clone(),
        "SECRET (the new secret is not recorded)",
    );
    let player = request.player.clone();
    change_secret(
        state,
        request,
        &player,
        hash,
        Reply::new(
            Status::Done,
            "your secret is changed: log in with it from now on",
        ),
    )
    .await
    .unwrap_or_else(Pending::Now)
}

/// `PLAYERS`: every player, without secrets (the admin only).
pub(in crate::relay) fn list_players(state: &State, request: &Request) -> Reply {
    if !request.admin {
        return Reply::new(Status::Forbidden, "only the arbiter (admin) lists players");
    }
    let mut lines = vec![format!("{} player(s)", state.people.players.len())];
    let mut sorted: Vec<&Player> = state.people.players.values().collect();
    sorted.sort_unstable_by(|a, b| a.id.cmp(&b.id));
    for p in sorted {
        lines.push(player_line(&state.people, p));
    }
    Reply::new(Status::Done, lines.join("\n"))
}

/// `WHOAMI`: the sender as the relay takes them, the line `PLAYERS` gives the arbiter (so a
/// player sees their own notation, language and reach as the relay will use them), and the
/// wire it came by. The arbiter is told so.
pub(in crate::relay) fn who_am_i(people: &People, request: &Request) -> Reply {
    let wire = request.sender.channel.as_str();
    if request.admin {
        return Reply::new(Status::Done, format!("admin (the arbiter), on {wire}"));
    }
    match people.players.get(&request.sender.player) {
        Some(player) => Reply::new(
            Status::Done,
            format!("{}, on {wire}", player_line(people, player)),
        ),
        None => Reply::new(
            Status::NotFound,
            format!("no player {:?}", request.sender.player),
        ),
    }
}

/// A player as `PLAYERS` and `WHOAMI` list them: `alice "Alice" san (ru) tcp <a@x.org>
/// [registered]`, the last word saying where the player was made (the configuration file,
/// or `PLAYER ADD` while the relay runs).
fn player_line(people: &People, p: &Player) -> String {
    let from = if people.registry.players.contains_key(&p.id) {
        "registered"
    } else {
        "configuration"
    };
    let lang = p.lang.map(|l| format!(" ({l})")).unwrap_or_default();
    let email = p
        .email
        .as_ref()
        .map(|e| format!(" <{}>", e.address))
        .unwrap_or_default();
    let callsign = p
        .radio
        .as_ref()
        .map(|r| format!(" {}", r.callsign))
        .unwrap_or_default();
    format!(
        "{} \"{}\" {}{lang} {}{email}{callsign} [{from}]",
        p.id,
        p.name,
        notation_name(p.notation),
        reach_name(&p.reach)
    )
}
