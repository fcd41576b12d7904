//! The limit on open files (sockets included): raised from its soft value to the hard one at
//! start, because a relay with thousands of players holds a descriptor per connection and the
//! usual soft limit (1,024) is far below what the configured connection limits allow.
//!
//! ```
//! let limit = ccrelay::open_files::raise();
//! assert!(limit.soft <= limit.hard);
//! assert!(limit.soft >= limit.before);
//! ```

/// The open-file limit before and after [`raise`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OpenFiles {
    /// The soft limit found at start.
    pub before: u64,
    /// The soft limit now.
    pub soft: u64,
    pub hard: u64,
}

impl OpenFiles {
    /// Whether `wanted` descriptors fit; if not, a sentence saying so and what to do: raise
    /// the limit, or `or_else`.
    pub fn check(&self, wanted: u64, for_what: &str, or_else: &str) -> Result<(), String> {
        if wanted <= self.soft {
            return Ok(());
        }
        Err(format!(
            "{for_what} may need {wanted} open files, but the limit is {} (hard limit {}): \
             raise it (`ulimit -n`, or LimitNOFILE= in the systemd unit) or {or_else}",
            self.soft, self.hard
        ))
    }
}

/// Raises the soft open-file limit to the hard limit, as far as the system allows, and says
/// what it is now. Never fails: where the limit cannot be read or raised, it is reported as
/// found.
pub fn raise() -> OpenFiles {
    let Ok((before, hard)) = rlimit::Resource::NOFILE.get() else {
        return OpenFiles {
            before: u64::MAX,
            soft: u64::MAX,
            hard: u64::MAX,
        };
    };
    let soft = rlimit::increase_nofile_limit(hard).unwrap_or(before);
    OpenFiles { before, soft, hard }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_few_descriptors_are_said_with_what_to_do() {
        let limit = OpenFiles {
            before: 1024,
            soft: 4096,
            hard: 4096,
        };
        assert_eq!(limit.check(4096, "a relay", "lower it"), Ok(()));
        let why = limit.check(40_064, "a benchmark of 10000 games", "play fewer games");
        let why = why.unwrap_err();
        assert!(
            why.contains("40064 open files") && why.contains("limit is 4096"),
            "{why}"
        );
        assert!(why.ends_with("or play fewer games"), "{why}");
    }
}
