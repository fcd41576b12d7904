//! Golden mails (tests/fixtures/email/{rfc,malformed}/NNN.eml), in mail-parser's style: each
//! with a hand-written NNN.expected saying what the relay must read from it: the sender, the
//! game, the key words, whether it was cut, and the command or the error. Charsets (KOI8-R,
//! windows-1251, ISO-8859-5), quoted-printable, base64, HTML-only, quoted history, signatures,
//! a wrong key, forged From lines, a big attachment read only in part, and broken MIME.
//!
//! `CCRELAY_SHOW_FIXTURES=1` prints what was read, to write an expectation by hand.

use ccrelay::transport::email::{auth, inbound, maildir, message};

use crate::support::fixtures::fixture;

/// What is read of a mail, one `key: value` a line.
fn read(path: &std::path::Path) -> String {
    // 8 KiB: the big-attachment fixture is cut, as a 10 MB mail is at the default limit.
    let (raw, truncated) = maildir::read_bounded(path, 8192).expect("read fixture");
    let mail = match message::parse(&raw, truncated) {
        Ok(mail) => mail,
        Err(e) => return format!("error: {e}\n"),
    };
    let game = inbound::game_of(&mail, "relay.example.org").unwrap_or_default();
    // The command in the line protocol's form (the game as the subject names it, `?` if
    // none), and the player's other words: the message for the opponent.
    let request =
        match ccrelay::command::letter::read(&mail.text, if game.is_empty() { "?" } else { &game })
        {
            Ok(found) => format!(
                "{}\nmessage: {}",
                found.command,
                found.message.unwrap_or_default()
            ),
            Err(e) => format!("error: {e}"),
        };
    format!(
        "from: {}\ngame: {game}\ntokens: {}\ntruncated: {}\nautomatic: {}\nrequest: {request}\n",
        mail.from,
        auth::tokens(&mail, "relay@relay.example.org").join(" "),
        mail.truncated,
        mail.automatic,
    )
}

#[test]
fn every_golden_mail_reads_as_expected() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for set in ["rfc", "malformed"] {
        let dir = fixture(&format!("email/{set}"));
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .expect("fixtures")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "eml"))
            .collect();
        paths.sort();
        for path in paths {
            let got = read(&path);
            if std::env::var_os("CCRELAY_SHOW_FIXTURES").is_some() {
                eprintln!("== {}\n{got}", path.display());
            }
            let expected_path = path.with_extension("expected");
            let expected = std::fs::read_to_string(&expected_path)
                .unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
            if got != expected {
                failures.push(format!(
                    "{}:\n--- expected\n{expected}--- got\n{got}",
                    path.display()
                ));
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} fixtures");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
