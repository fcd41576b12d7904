//! ICCF's rules through the real daemon over TCP, on its manual clock (`CLOCK +Nd`), as
//! docs/rules.md tells them: a Triple Block game refilled from its bank (`BANK`) with leave
//! refused, a long reflection declared ahead (`SILENCE g1 LONG`) keeping a game past the
//! silence limit, a draw offer before the event's move refused, and an entry after a loss on
//! time refused and then overridden by the arbiter; each across a restart of the daemon, the
//! journal verified after. And `BANK` and `SILENCE g1 LONG` across a link, to the node that
//! keeps the game and back in its record.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::support::config::{ALICE, BORIS, config_text_with};
use crate::support::daemon::{Daemon, admin};
use crate::support::journal::{assert_journal_verifies, journal_export};
use crate::support::line::{Client, ok, push_starting};
use crate::support::link::{Node, node_config_with, settled};

const START: &str = "2027-01-01T00:00:00Z";

/// A daemon config with a manual clock and one event `ev` with `rules` (TOML lines).
fn setup(rules: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let extra = format!(
        "[clock]\nmode = \"manual\"\nstart = \"{START}\"\n\
         [[events]]\nid = \"ev\"\nname = \"ICCF rules\"\nsite = \"ccrelay\"\n{rules}\n"
    );
    let text = config_text_with(&dir.path().join("data"), &[ALICE, BORIS], &[], &extra);
    std::fs::write(&config, text).expect("write config");
    (dir, config)
}

/// The daemon stopped and started again, with the admin, alice and boris logged in anew.
fn restart(mut daemon: Daemon, config: &Path) -> (Daemon, Client, Client, Client) {
    assert!(daemon.terminate().success());
    let daemon = Daemon::start(config);
    let (arbiter, alice, boris) = (admin(&daemon), daemon.login(&ALICE), daemon.login(&BORIS));
    (daemon, arbiter, alice, boris)
}

/// A push or a reply without the short receipt that ends it (` r9:db2ab7bb123f`).
fn unreceipted(text: &str) -> &str {
    match text.rsplit_once(' ') {
        Some((said, receipt)) if receipt.starts_with('r') && receipt.contains(':') => said,
        _ => text,
    }
}

fn refused(client: &mut Client, line: &str, says: &str) {
    let (code, text) = client.call(line);
    assert_eq!(code, 409, "{line}: {text}");
    assert!(text.contains(says), "{line}: {text}");
}

/// docs/rules.md, "Triple Block", by hand: White thinks 30 days (clock 23, bank 75); 10 days
/// into its second move (the daemon restarted meanwhile) it moves 20 days from the bank:
/// 33 days on the clock, the opponent told; `SHOW` says so before and after another restart;
/// leave is refused, nothing recorded.
#[test]
fn a_triple_block_clock_is_refilled_from_the_bank_across_restarts() {
    let (_dir, config) =
        setup("time_control = \"triple block 50 days + 3 days per move, bank 75, refill by hand\"");
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 alice boris EVENT ev");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    ok(&mut arbiter, "CLOCK +30d");
    ok(&mut alice, "MOVE g1 e4");
    ok(&mut boris, "MOVE g1 e5");
    ok(&mut arbiter, "CLOCK +10d");
    drop((arbiter, alice, boris));
    let (daemon, _arbiter, mut alice, mut boris) = restart(daemon, &config);
    assert!(ok(&mut alice, "SHOW g1").contains("White clock 13d 00h, bank 75d (running)"));
    refused(
        &mut boris,
        "BANK g1 5",
        "refill refused: a clock is refilled while its side is to move",
    );
    refused(
        &mut alice,
        "BANK g1 40",
        "refill refused: the clock holds at most 50 days: 37 day(s) fit on it now, 40 asked",
    );
    let reply = ok(&mut alice, "BANK g1 20");
    assert!(
        reply.starts_with(
            "bank g1: 20 day(s) moved to the clock; clock: White clock 33d 00h, bank 55d (running)"
        ),
        "{reply}"
    );
    let told = push_starting(&mut boris, "RECORDED g1");
    assert_eq!(
        unreceipted(&told),
        "RECORDED g1 alice (White) moved 20 day(s) from the bank to the clock"
    );
    refused(
        &mut alice,
        "LEAVE 2027-03-01 5",
        "game g1: leave refused: a Triple Block game has no leave: refill the clock from the bank",
    );
    drop((alice, boris));
    let (daemon, _arbiter, mut alice, _boris) = restart(daemon, &config);
    assert!(ok(&mut alice, "SHOW g1").contains("White clock 33d 00h, bank 55d (running)"));
    drop((alice, daemon));
    assert_journal_verifies(&config);
    let report = journal_export(&config, "g1", "report");
    assert!(report.contains("refill: \"BANK g1 20\""), "{report}");
    let pgn = journal_export(&config, "g1", "pgn");
    assert!(
        pgn.contains("{[%ccrefill 20,2027.02.10,00:00:00]}"),
        "{pgn}"
    );
    let sheet = journal_export(&config, "g1", "iccf");
    assert!(
        sheet.contains(
            "Days moved from the bank to the clock:\n  White  2027-02-10 00:00  20 day(s)\n"
        ),
        "{sheet}"
    );
    assert!(
        sheet.contains("  White: 40d 00h used, 33d 00h left, bank 55d\n"),
        "{sheet}"
    );
}

/// docs/rules.md, "Fischer days", capped: 30 days + 10 a move, at most 45. Quick moves fill
/// the clock to the cap and no further; ten days of thought on a move are charged ten and
/// the increment tops the clock up to the cap again; a restart in the middle of a move's
/// reflection changes nothing; past 20 days a day counts double, so the 45 days run out on
/// the 33rd day of a move (32 days are charged 44, 33 are charged 46). `SHOW`, the PGN and
/// the scoresheet agree.
#[test]
fn a_capped_fischer_clock_fills_to_its_cap_and_runs_out_doubled() {
    let (_dir, config) =
        setup("time_control = \"30 days + 10 days per move, max 45\"\ncounting = \"iccf\"");
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 alice boris EVENT ev");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    ok(&mut alice, "MOVE g1 e4");
    ok(&mut boris, "MOVE g1 e5");
    ok(&mut alice, "MOVE g1 Nf3");
    ok(&mut boris, "MOVE g1 Nc6");
    let shown = ok(&mut alice, "SHOW g1");
    assert!(shown.contains("White 0d 00h used, 45d 00h left"), "{shown}");
    assert!(shown.contains("Black 0d 00h used, 45d 00h left"), "{shown}");
    ok(&mut arbiter, "CLOCK +5d");
    drop((arbiter, alice, boris));
    let (daemon, mut arbiter, mut alice, mut boris) = restart(daemon, &config);
    ok(&mut arbiter, "CLOCK +5d");
    let shown = ok(&mut alice, "SHOW g1");
    assert!(
        shown.contains("White 10d 00h used, 35d 00h left"),
        "{shown}"
    );
    ok(&mut alice, "MOVE g1 Bc4");
    let shown = ok(&mut boris, "SHOW g1");
    assert!(
        shown.contains("White 10d 00h used, 45d 00h left"),
        "{shown}"
    );
    ok(&mut arbiter, "CLOCK +32d");
    let shown = ok(&mut boris, "SHOW g1");
    assert!(
        shown.contains("Black 32d 00h used, charged 44d, 1d 00h left (running)"),
        "{shown}"
    );
    drop((arbiter, alice, boris));
    let (daemon, mut arbiter, _alice, mut boris) = restart(daemon, &config);
    ok(&mut arbiter, "CLOCK +1d");
    let shown = ok(&mut boris, "SHOW g1");
    assert!(shown.contains("1-0 (lost on time)"), "{shown}");
    drop((arbiter, boris, daemon));
    assert_journal_verifies(&config);
    let pgn = journal_export(&config, "g1", "pgn");
    assert!(pgn.contains("[TimeControl \"2592000+864000\"]"), "{pgn}");
    assert!(
        pgn.contains(
            "[CCTimeControl \"30 days + 10 days per move, max 45, whole days, doubled after 20 days\"]"
        ),
        "{pgn}"
    );
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    let sheet = journal_export(&config, "g1", "iccf");
    assert!(
        sheet.contains(
            "The clock after each move:\n  No.  White                   Black\n   1.  40d 00h                 40d 00h\n   2.  45d 00h                 45d 00h\n   3.  45d 00h"
        ),
        "{sheet}"
    );
}

/// docs/rules.md, "Silence": White declares a long reflection for its second move; 45 days
/// of silence later (a restart between) the game goes on; the time control still ends it.
#[test]
fn a_long_reflection_keeps_a_game_past_the_silence_limit() {
    let (_dir, config) = setup("time_control = \"10 moves in 50 days\"\nsilence_days = 40");
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 alice boris EVENT ev");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    ok(&mut alice, "MOVE g1 d4");
    let reply = ok(&mut alice, "SILENCE g1 LONG");
    assert!(
        reply.starts_with("silence g1: a long reflection declared for your move 2"),
        "{reply}"
    );
    let said = "RECORDED g1 alice (White) declared a long reflection for move 2: the silence limit does not end the game on it";
    assert_eq!(unreceipted(&push_starting(&mut boris, "RECORDED g1")), said);
    assert_eq!(
        unreceipted(&push_starting(&mut arbiter, "RECORDED g1")),
        said
    );
    refused(
        &mut alice,
        "SILENCE g1 LONG",
        "long reflection refused: a long reflection is declared already for your next move",
    );
    ok(&mut boris, "MOVE g1 d5");
    ok(&mut arbiter, "CLOCK +20d");
    drop((arbiter, alice, boris));
    let (daemon, mut arbiter, mut alice, mut boris) = restart(daemon, &config);
    ok(&mut arbiter, "CLOCK +25d");
    let shown = ok(&mut alice, "SHOW g1");
    assert!(!shown.contains("result:"), "{shown}");
    ok(&mut boris, "GAMES");
    assert!(
        boris.pushes.iter().all(|(_, p)| !p.starts_with("TIME g1")),
        "{:?}",
        boris.pushes
    );
    // 50 days for the first ten moves: a day later it is over.
    ok(&mut arbiter, "CLOCK +6d");
    let told = push_starting(&mut alice, "TIME g1");
    assert!(told.contains("time limit exceeded, lost on time"), "{told}");
    drop((arbiter, alice, boris, daemon));
    assert_journal_verifies(&config);
}

/// docs/rules.md, "Draw offers": with `draw_offers_from_move = 3`, an offer, an offer with a
/// move and an agreement before move 3 are refused with the reason; at move 3 the offer goes.
#[test]
fn a_draw_offer_before_the_events_move_is_refused() {
    let (_dir, config) = setup("draw_offers_from_move = 3");
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 alice boris EVENT ev");
    let mut alice = daemon.login(&ALICE);
    let mut boris = daemon.login(&BORIS);
    let too_early = "too early for a draw: in this event no draw is offered or agreed before move 3; this is move 1";
    refused(&mut alice, "DRAW g1 OFFER", too_early);
    refused(&mut alice, "MOVE g1 e4 (=)", too_early);
    refused(&mut boris, "DRAW g1 ACCEPT", too_early);
    ok(&mut alice, "MOVE g1 e4");
    ok(&mut boris, "MOVE g1 e5");
    ok(&mut alice, "MOVE g1 Nf3");
    ok(&mut boris, "MOVE g1 Nc6");
    let reply = ok(&mut alice, "MOVE g1 Bc4 (=)");
    assert!(reply.contains("draw offered"), "{reply}");
    drop((arbiter, alice, boris, daemon));
    assert_journal_verifies(&config);
}

/// docs/rules.md, "A loss on time bars new entries": boris loses on time on 12 January; the
/// club keeps the bar (`TIMEOUTBAR 30,90`): after a restart his entry is refused until
/// 11 February, and the arbiter's override enters him, journaled with its reason.
#[test]
fn an_entry_after_a_loss_on_time_is_refused_until_the_arbiter_overrides() {
    let (_dir, config) = setup("time_control = \"2 moves in 10 days\"");
    let daemon = Daemon::start(&config);
    let mut arbiter = admin(&daemon);
    ok(&mut arbiter, "CREATE g1 boris alice EVENT ev");
    ok(
        &mut arbiter,
        "EVENT NEW club SYSTEM round-robin NAME \"Club\" TIMEOUTBAR 30,90",
    );
    ok(&mut arbiter, "CLOCK +11d");
    let mut boris = daemon.login(&BORIS);
    assert!(ok(&mut boris, "SHOW g1").contains("0-1 (lost on time)"));
    drop((arbiter, boris));
    let (daemon, mut arbiter, _alice, _boris) = restart(daemon, &config);
    let (code, text) = arbiter.call("EVENT ENTER club alice boris");
    assert_eq!(code, 409, "{text}");
    assert!(
        text.starts_with(
            "boris lost a game on time and may not enter a new event until 2027-02-11T00:00:00Z"
        ),
        "{text}"
    );
    ok(&mut arbiter, "EVENT ENTER club alice");
    let reply = ok(
        &mut arbiter,
        "EVENT ENTER club boris OVERRIDE lost to a server outage",
    );
    assert!(
        unreceipted(&reply).ends_with(
            "the bar after a loss on time overridden for boris (until 2027-02-11T00:00:00Z): lost to a server outage"
        ),
        "{reply}"
    );
    drop(arbiter);
    let (daemon, mut arbiter, _alice, _boris) = restart(daemon, &config);
    let shown = ok(&mut arbiter, "EVENT SHOW club");
    assert!(shown.contains("boris"), "{shown}");
    drop((arbiter, daemon));
    assert_journal_verifies(&config);
}

/// A node of a link for the test below: `local` players (secret = id + "-secret"), `remote`
/// ones across link `peer`, and after the link table `extra` (the clock, the events, the
/// games).
fn linked_node(local: &[&str], remote: &[&str], link: &str, extra: &str) -> Node {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = dir.path().join("ccrelay.toml");
    let text = node_config_with(
        &dir.path().join("data"),
        local,
        remote,
        &[],
        &format!("retransmit_ms = 150\nwindow = 4\n{link}{extra}"),
    );
    std::fs::write(&config, text).expect("write config");
    let daemon = Daemon::start(&config);
    Node {
        dir,
        config,
        daemon,
    }
}

fn linked_login(node: &Node, player: &str) -> Client {
    let mut c = node.daemon.connect();
    let (code, text) = c.call(&format!("LOGIN {player} {player}-secret"));
    assert_eq!(code, 230, "{text}");
    c
}

/// Waits for a push that contains `needle`, keeping the others.
fn wait_push(client: &mut Client, needle: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(i) = client.pushes.iter().position(|(_, b)| b.contains(needle)) {
            return client.pushes.remove(i).1;
        }
        assert!(
            Instant::now() < deadline,
            "no push with {needle:?}; pushes: {:?}",
            client.pushes
        );
        let kept = std::mem::take(&mut client.pushes);
        let push = client.next_push();
        client.pushes = kept;
        client.pushes.push(push);
    }
}

/// docs/link.md: `BANK` and `SILENCE g1 LONG` in games the other node keeps travel as `LEAVE`
/// does: proposed (`202`), checked and recorded by the node that keeps the game (a refusal
/// comes back as `REFUSED`), brought back in its record; the opponent on the keeping node is
/// told, and both nodes hold the same record.
#[test]
fn bank_and_a_long_reflection_cross_a_link_to_the_node_that_keeps_the_game() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let rules = format!(
        "[clock]\nmode = \"manual\"\nstart = \"{START}\"\n\
         [[events]]\nid = \"tb\"\n\
         time_control = \"triple block 50 days + 3 days per move, bank 75, refill by hand\"\n\
         [[events]]\nid = \"quiet\"\ntime_control = \"10 moves in 50 days\"\nsilence_days = 40\n\
         [[games]]\nid = \"x1\"\nevent = \"tb\"\nwhite = \"anna\"\nblack = \"boris\"\n\
         [[games]]\nid = \"x2\"\nevent = \"quiet\"\nwhite = \"anna\"\nblack = \"boris\"\n"
    );
    // Node A keeps both games (anna, White, plays there).
    let a = linked_node(
        &["anna"],
        &["boris"],
        &format!("transport = \"tcp\"\nlisten = \"127.0.0.1:{port}\"\n"),
        &rules,
    );
    let b = linked_node(
        &["boris"],
        &["anna"],
        &format!("transport = \"tcp\"\nconnect = \"127.0.0.1:{port}\"\n"),
        &rules,
    );
    let mut anna = linked_login(&a, "anna");
    let mut boris = linked_login(&b, "boris");
    let mut arbiter = admin(&a.daemon);
    ok(&mut anna, "MOVE x1 5254");
    wait_push(&mut boris, "MOVE x1 1. 5254");
    ok(&mut arbiter, "CLOCK +10d");
    // Boris has thought 10 days: 40 on his clock, room for 10.
    let (code, text) = boris.call("BANK x1 20");
    assert_eq!(code, 202, "{text}");
    let refused = wait_push(&mut boris, "REFUSED x1");
    // The link carries a refusal's reason cut short.
    assert!(
        refused.contains("refill refused: the clock holds at most 50 days: 10 day(s) fit"),
        "{refused}"
    );
    let (code, text) = boris.call("BANK x1 5");
    assert_eq!(code, 202, "{text}");
    wait_push(
        &mut anna,
        "RECORDED x1 boris (Black) moved 5 day(s) from the bank to the clock",
    );
    wait_push(&mut boris, "RECORDED x1 your refill is in the record");
    let (code, text) = boris.call("SILENCE x2 LONG");
    assert_eq!(code, 202, "{text}");
    let said = "RECORDED x2 boris (Black) declared a long reflection for move 1";
    wait_push(&mut anna, said);
    wait_push(&mut arbiter, said);
    wait_push(
        &mut boris,
        "RECORDED x2 your long reflection is in the record",
    );
    let nodes = [a, b];
    for game in ["x1", "x2"] {
        let (record, _) = settled(&nodes, game);
        let kind = if game == "x1" {
            "refill"
        } else {
            "long_reflection"
        };
        assert!(
            record.iter().any(|(_, p, k, _)| p == "boris" && k == kind),
            "{game}: {record:?}"
        );
    }
    drop((anna, boris, arbiter));
    for node in &nodes {
        assert_journal_verifies(&node.config);
    }
}
