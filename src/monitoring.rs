//! The relay's counters for an operator's dashboard, in Prometheus' text format at `/metrics`
//! (on the `[http]` server). Code anywhere records through the `metrics` crate's macros; this
//! module installs the one recorder, at start, and renders what it holds.
//!
//! | metric | what |
//! |---|---|
//! | `ccrelay_moves_total{channel, outcome}` | moves accepted or refused, by the channel they came by |
//! | `ccrelay_logins_refused_total{reason}` | logins refused (wrong secret, too many failures, busy) |
//! | `ccrelay_secret_checks_total` | Argon2id checks run (logins not remembered, email tokens) |
//! | `ccrelay_sessions_open` | line-protocol sessions open (TCP, serial terminals) |
//! | `ccrelay_journal_commit_seconds` | how long each group commit takes (a summary) |
//! | `ccrelay_journal_commits_failed_total` | commits that failed (the daemon then stops) |
//! | `ccrelay_mail_rejected_unjournaled_total{bound}` | refused mail over the journal's bound (`sender` or `all`): counted, not journaled |
//! | `ccrelay_mail_dead_letters_total` | mail refused for good by the SMTP server, parked as dead letters |
//! | `ccrelay_remote_last_success_seconds{remote}` | when a `[[remotes]]` account last polled its server without failing (seconds since 1970) |
//! | `ccrelay_remote_failures_total{remote}` | rounds with a remote server that failed (unreachable, slow, a fault, not SOAP) |
//! | `ccrelay_remote_paused{remote}` | 1 once the server refused the account's login: paused until the configuration changes |
//! | `ccrelay_log_lines_dropped_total` | log lines dropped, the log on stderr read slower than they came |

use std::sync::OnceLock;

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the recorder, once per process (a second call, as in a test running two relays,
/// keeps the first).
pub fn install() {
    HANDLE.get_or_init(|| match PrometheusBuilder::new().install_recorder() {
        Ok(handle) => Some(handle),
        Err(e) => {
            tracing::warn!(error = %e, "metrics not recorded");
            None
        }
    });
}

/// What the recorder holds, in Prometheus' text format; empty before [`install`].
pub fn render() -> String {
    HANDLE
        .get()
        .and_then(Option::as_ref)
        .map(PrometheusHandle::render)
        .unwrap_or_default()
}
