//! A player's mail when it is their move: their own `NOTIFY` (journaled as a `notify` entry,
//! replayed at start, published to the transports with the player), and the daily digests the
//! clock's tick makes due (a `notify_digest` entry, with the digest's outbox row when a game
//! waits: a restart after the hour sends it once, never twice). The mails themselves are the
//! email transport's (`transport/email/notify.rs`); the rows for a mail at each move are
//! added where every row is committed ([`crate::relay::notify::add_rows`]).

use crate::command::Notify;
use crate::config::{Reach, address_domain, mailable};
use crate::journal::entry::Meaning;
use crate::journal::notice::Notice;
use crate::journal::registry::{DigestDetail, NotifyDetail, NotifyRecord};
use crate::journal::{NewOutbox, Record};
use crate::relay::notify::{last_due, reader, wanted};
use crate::relay::pending::Pending;
use crate::relay::people::People;
use crate::relay::reply::{Channel, Reply, Status};
use crate::relay::request::Request;
use crate::relay::state::State;

/// Why `setting` is refused for the sender, if it is: the arbiter has no games to be told
/// of; a player reached by mail gets every move by mail already; a mail needs the relay to
/// send mail and to have a public address for its links; an address the mailer cannot send
/// to, a time zone not known here. `OFF` is refused to no player.
fn refusal(people: &People, request: &Request, setting: &Notify) -> Option<Reply> {
    if request.admin {
        return Some(Reply::new(
            Status::Forbidden,
            "NOTIFY is a player's: the arbiter plays no games to be told of",
        ));
    }
    let Some(player) = people.players.get(&request.player) else {
        return Some(Reply::new(
            Status::NotFound,
            format!("no player {:?}", request.player),
        ));
    };
    let address = setting.address()?;
    let refused = |why: &str| Some(Reply::new(Status::Refused, why));
    match player.reach {
        Reach::Email => {
            return refused(
                "you play by mail: every move that waits for you comes to you as a mail already",
            );
        }
        Reach::Link(_) => return refused("you play on another node: ask for mail there"),
        Reach::Tcp | Reach::Xfcc | Reach::Radio => {}
    }
    if !people.can_mail {
        return refused("this relay sends no mail (no [email] section): ask the arbiter");
    }
    if !people.notice_links {
        return refused(
            "this relay has no public address for the links in its mails ([http] public_url): ask the arbiter",
        );
    }
    let lower = address.to_lowercase();
    let bad_address = match address_domain(&lower) {
        None => Some(format!("{address:?} is not an address")),
        Some(_) => mailable(&lower).err(),
    };
    if let Some(why) = bad_address {
        return Some(Reply::new(Status::BadCommand, why));
    }
    if let Notify::Digest {
        zone: Some(zone), ..
    } = setting
        && jiff::tz::TimeZone::get(zone).is_err()
    {
        return Some(Reply::new(
            Status::BadCommand,
            format!("{zone:?} is not a time zone this relay knows (Europe/Moscow, UTC)"),
        ));
    }
    None
}

/// What the reply says the player will now get.
fn said(setting: &Notify) -> String {
    match setting {
        Notify::Off => "notify: off; no mail when it is your move".to_owned(),
        Notify::Each { address } => {
            format!("notify: a mail to {address} at each move that waits for you")
        }
        Notify::Digest {
            hour,
            zone,
            address,
        } => format!(
            "notify: a mail to {address} every day at {hour:02}:00 {} listing the games that wait for you",
            zone.as_deref().unwrap_or("UTC")
        ),
    }
}

/// `NOTIFY OFF|EACH <address>|DIGEST <hour> [<zone>] <address>`: the sender's own mail when it
/// is their move, journaled, then theirs (and the transports') once queued.
pub(in crate::relay) async fn set(
    state: &mut State,
    request: &Request,
    setting: &Notify,
) -> Pending {
    if let Some(reply) = refusal(&state.people, request, setting) {
        return Pending::Now(reply);
    }
    // An address is kept as the configuration keeps a player's: in lower case.
    let setting = match setting.clone() {
        Notify::Off => Notify::Off,
        Notify::Each { address } => Notify::Each {
            address: address.to_lowercase(),
        },
        Notify::Digest {
            hour,
            zone,
            address,
        } => Notify::Digest {
            hour,
            zone,
            address: address.to_lowercase(),
        },
    };
    let player = request.player.clone();
    let meaning = Meaning::Notify(NotifyDetail {
        player: player.clone(),
        notify: setting.clone(),
    });
    let entry = match state.recorder.request_entry(request, "", &meaning) {
        Ok(entry) => entry,
        Err(reply) => return Pending::Now(reply),
    };
    let committed = match state
        .enqueue(vec![Record {
            entry,
            outbox: Vec::new(),
        }])
        .await
    {
        Ok(committed) => committed,
        Err(reply) => return Pending::Now(reply),
    };
    let reply = said(&setting);
    state.people.registry.notify.insert(
        player.clone(),
        NotifyRecord {
            notify: setting.clone(),
            since: state.recorder.now,
        },
    );
    if let Some(mut changed) = state.people.players.get(&player).cloned() {
        changed.notify = (setting != Notify::Off).then_some(setting);
        state.people.anyone_notified |= changed.notify.is_some();
        state.people.put_player(changed);
    }
    Pending::AfterCommit(committed, Reply::new(Status::Done, reply))
}

/// Journals each digest that came due by now and was not yet (`notify_digest`, by the channel
/// `clock`), with its mail's outbox row if a game waits for the player: a digest's hour that
/// finds no game waiting sends nothing, and is not looked at again. Only the day's last hour
/// passed counts (a relay stopped for days sends one digest, not one a day), and never one
/// before the player chose it.
pub(in crate::relay) async fn digests(state: &mut State) {
    let now = state.recorder.now;
    let mut due_now: Vec<(String, jiff::Timestamp)> = Vec::new();
    for player in state.people.players.values() {
        let Some(Notify::Digest { hour, zone, .. }) = wanted(player) else {
            continue;
        };
        let Some(due) = last_due(*hour, zone.as_deref(), now) else {
            continue;
        };
        let registry = &state.people.registry;
        let chosen_after = registry
            .notify
            .get(&player.id)
            .is_some_and(|r| r.since >= due);
        let sent = registry.digests.get(&player.id).is_some_and(|d| *d >= due);
        if !chosen_after && !sent {
            due_now.push((player.id.clone(), due));
        }
    }
    due_now.sort();
    for (player, due) in due_now {
        let waiting = state
            .games
            .by_id
            .values()
            .any(|g| g.result().is_none() && g.side_of(&player) == Some(g.turn()));
        let meaning = Meaning::NotifyDigest(DigestDetail {
            player: player.clone(),
            due,
        });
        let entry =
            match state
                .recorder
                .entry("", &player, Channel::Clock, &meaning, "notify digest")
            {
                Ok(entry) => entry,
                Err(reply) => {
                    tracing::error!(%player, error = %reply.text, "digest's entry not recorded");
                    return;
                }
            };
        let outbox = if waiting {
            vec![NewOutbox::notice(&reader(&player), Notice::Digest { due })]
        } else {
            Vec::new()
        };
        // Queued in order before anything that follows, as the clock's other entries are.
        if let Err(reply) = state.enqueue(vec![Record { entry, outbox }]).await {
            tracing::error!(%player, error = %reply.text, "digest's entry not recorded");
            return;
        }
        state.people.registry.digests.insert(player, due);
    }
}
