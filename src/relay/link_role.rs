//! What this node is for a game played across a link: the node that keeps its record, or
//! the other (docs/link.md, "One record").

/// What this node is for a game played across a link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum LinkRole {
    /// This node keeps the record; `remote` plays on the other node.
    Keeper { remote: String },
    /// The other node keeps the record; `remote`, its player, plays there.
    Replica { remote: String },
}

impl LinkRole {
    pub(super) fn remote(&self) -> &str {
        match self {
            LinkRole::Keeper { remote } | LinkRole::Replica { remote } => remote,
        }
    }
}
