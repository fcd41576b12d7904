//! A `[[remotes]]` account's standing with its server, told to its player and the admin when
//! it changes (docs/xfcc.md, "When the server fails"): failing for an hour, working again,
//! paused on a refused login. Each change is a `remote_status` entry with the two outbox rows,
//! and the registry keeps the last one, so that a restart neither tells a change twice nor
//! forgets that an account was paused or failing.

use crate::journal::entry::{Meaning, RemoteHealth, RemoteStatusDetail};
use crate::journal::notice::Notice;
use crate::journal::{NewOutbox, Record};
use crate::relay::pending::Pending;
use crate::relay::reply::{Channel, Reply, Status};
use crate::relay::state::State;

/// The reader of every notice to the administrator.
const ADMIN: &str = "admin";

/// The last standing told of account `remote`, if any.
pub(in crate::relay) fn known(state: &State, remote: &str) -> Option<RemoteStatusDetail> {
    state.people.registry.remotes.get(remote).cloned()
}

/// Journals `detail` and tells the account's player and the admin, if it changes what was
/// told last; `Seen` when it does not (the same standing again, or working when nothing else
/// was ever told: no news).
pub(in crate::relay) async fn report(state: &mut State, detail: RemoteStatusDetail) -> Pending {
    let last = state.people.registry.remotes.get(&detail.remote);
    let news = match (last.map(|l| l.health), detail.health) {
        (None | Some(RemoteHealth::Working), RemoteHealth::Working) => false,
        (Some(RemoteHealth::Paused), RemoteHealth::Paused) => {
            last.is_some_and(|l| l.stamp != detail.stamp)
        }
        (Some(was), now) => was != now,
        (None, _) => true,
    };
    if !news {
        return Pending::Now(Reply::new(Status::Seen, "told before"));
    }
    let meaning = Meaning::RemoteStatus(detail.clone());
    let text = format!("remote {}: {}", detail.remote, detail.health.as_str());
    let entry = match state
        .recorder
        .entry("", &detail.player, Channel::Link, &meaning, &text)
    {
        Ok(entry) => entry,
        Err(reply) => return Pending::Now(reply),
    };
    let notice = Notice::Remote {
        remote: detail.remote.clone(),
        player: detail.player.clone(),
        health: detail.health,
    };
    let outbox = [detail.player.as_str(), ADMIN]
        .into_iter()
        .map(|reader| NewOutbox::notice(reader, notice.clone()))
        .collect();
    match state.enqueue(vec![Record { entry, outbox }]).await {
        Ok(committed) => {
            let reply = Reply::new(Status::Done, text);
            state
                .people
                .registry
                .remotes
                .insert(detail.remote.clone(), detail);
            Pending::AfterCommit(committed, reply)
        }
        Err(reply) => Pending::Now(reply),
    }
}
