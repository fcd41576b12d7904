//! What must hold once a simulated match has settled: one record on both nodes, journals
//! that verify, every acknowledged action in the record, every proposal decided.

use crate::journal::replay;
use crate::journal::store;
use crate::journal::{Entry, EntryKind};
use crate::relay::{Done, proposal_key, refusal_key};

use super::node::Node;

/// A record entry as both nodes must hold it.
pub(super) type RecordLine = (String, String, EntryKind, Option<String>, String);

/// The record entries of `game` in a node's journal, in order.
pub(super) fn record_of(node: &Node, game: &str) -> Vec<RecordLine> {
    entries(node, Some(game))
        .into_iter()
        .filter(|e| e.kind.is_record())
        .map(|e| (e.time, e.player, e.kind, e.iccf, e.detail))
        .collect()
}

pub(super) fn entries(node: &Node, game: Option<&str>) -> Vec<Entry> {
    let conn = store::open_read_only(&node.config.data_dir).expect("journal readable");
    let mut out = Vec::new();
    store::for_each_entry(&conn, game, |e| {
        out.push(e);
        Ok(())
    })
    .expect("journal entries");
    out
}

/// `journal verify` on a node's journal.
pub(super) fn verify(node: &Node) -> Result<(), String> {
    let conn = store::open_read_only(&node.config.data_dir).map_err(|e| e.to_string())?;
    replay::verify(&conn).map(|_| ()).map_err(|e| e.to_string())
}

/// The proposals a node made in `game` (which the other node keeps), with their ids: the
/// n-th proposal of a side (or of the arbiter) is its number n.
pub(super) fn proposals(node: &Node, game: &str, white: &str, black: &str) -> Vec<(char, u32)> {
    let mut counts = [0u32; 3];
    let mut out = Vec::new();
    for e in entries(node, Some(game)) {
        if e.kind != EntryKind::Proposal {
            continue;
        }
        let (side, i) = if e.player == white {
            ('w', 0)
        } else if e.player == black {
            ('b', 1)
        } else {
            ('a', 2)
        };
        out.push((side, counts[i]));
        counts[i] += 1;
    }
    out
}

/// Every proposal of `proposer` in `game` is decided on `keeper` (applied or refused, known
/// by its id), and a refusal is recorded back on the proposer.
pub(super) async fn proposals_decided(
    proposer: &Node,
    keeper: &Node,
    game: &str,
    white: &str,
    black: &str,
) -> Result<(), String> {
    for (side, number) in proposals(proposer, game, white, black) {
        let decided = keeper
            .mailbox
            .seen(&proposal_key(game, side, number))
            .await
            .map_err(|e| e.to_string())?;
        let Some(decided) = decided else {
            return Err(format!(
                "{game}: proposal {side}{number} is not decided on the keeping node"
            ));
        };
        if let Done::Refused { .. } = decided.done {
            let told = proposer
                .mailbox
                .seen(&refusal_key(game, side, number))
                .await
                .map_err(|e| e.to_string())?;
            if told.is_none() {
                return Err(format!(
                    "{game}: proposal {side}{number} was refused, and the proposing node does not know"
                ));
            }
        }
    }
    Ok(())
}
