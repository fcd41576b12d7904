//! `NOTIFY`, a player's mail when it is their move: each mode read and written back, what is
//! not its form refused, and the settings form's fields making the command its line makes.

use super::*;

#[test]
fn notify_reads_each_mode_and_writes_it_back() {
    let each = |address: &str| Command::Notify {
        setting: Notify::Each {
            address: address.to_owned(),
        },
    };
    let digest = |hour, zone: Option<&str>, address: &str| Command::Notify {
        setting: Notify::Digest {
            hour,
            zone: zone.map(str::to_owned),
            address: address.to_owned(),
        },
    };
    let cases = [
        (
            "NOTIFY OFF",
            Command::Notify {
                setting: Notify::Off,
            },
        ),
        (
            "notify off",
            Command::Notify {
                setting: Notify::Off,
            },
        ),
        ("NOTIFY EACH alice@example.org", each("alice@example.org")),
        (
            "NOTIFY each a.b+c@mail.example.org",
            each("a.b+c@mail.example.org"),
        ),
        (
            "NOTIFY DIGEST 8 alice@example.org",
            digest(8, None, "alice@example.org"),
        ),
        ("NOTIFY DIGEST 0 a@x.org", digest(0, None, "a@x.org")),
        ("NOTIFY DIGEST 23 a@x.org", digest(23, None, "a@x.org")),
        ("NOTIFY DIGEST 07 a@x.org", digest(7, None, "a@x.org")),
        (
            "NOTIFY DIGEST 19 Europe/Moscow a@x.org",
            digest(19, Some("Europe/Moscow"), "a@x.org"),
        ),
        (
            "NOTIFY DIGEST 6 America/Argentina/Buenos_Aires a@x.org",
            digest(6, Some("America/Argentina/Buenos_Aires"), "a@x.org"),
        ),
    ];
    for (line, command) in cases {
        assert_eq!(Command::parse(line), Ok(command.clone()), "{line}");
        assert_eq!(Command::parse(&command.to_string()), Ok(command), "{line}");
    }
    assert_eq!(
        Command::parse("NOTIFY DIGEST 7 a@x.org")
            .unwrap()
            .to_string(),
        "NOTIFY DIGEST 7 a@x.org"
    );
    // An address is free text: the one check sees it.
    assert_eq!(
        each("a@x.org").texts(),
        vec![("a@x.org", TextKind::Address)]
    );
    assert!(
        Command::Notify {
            setting: Notify::Off
        }
        .texts()
        .is_empty()
    );
    assert_eq!(
        Command::Notify {
            setting: Notify::Off
        }
        .game(),
        None
    );
    assert_eq!(
        Command::Notify {
            setting: Notify::Off
        }
        .carries_secret(),
        None
    );
}

#[test]
fn notify_refuses_what_is_not_its_form() {
    for (line, kind) in [
        ("NOTIFY", CommandErrorKind::Missing),
        ("NOTIFY ALWAYS a@x.org", CommandErrorKind::BadValue),
        ("NOTIFY EACH", CommandErrorKind::Missing),
        ("NOTIFY EACH alice", CommandErrorKind::BadValue),
        ("NOTIFY EACH @x.org", CommandErrorKind::BadValue),
        ("NOTIFY EACH a@", CommandErrorKind::BadValue),
        ("NOTIFY EACH a@b@x.org", CommandErrorKind::BadValue),
        ("NOTIFY EACH <a@x.org>", CommandErrorKind::BadValue),
        ("NOTIFY EACH a@x.org b@x.org", CommandErrorKind::Unexpected),
        ("NOTIFY OFF a@x.org", CommandErrorKind::Unexpected),
        ("NOTIFY DIGEST a@x.org", CommandErrorKind::BadValue),
        ("NOTIFY DIGEST 24 a@x.org", CommandErrorKind::BadValue),
        ("NOTIFY DIGEST -1 a@x.org", CommandErrorKind::BadValue),
        ("NOTIFY DIGEST +8 a@x.org", CommandErrorKind::BadValue),
        ("NOTIFY DIGEST 8", CommandErrorKind::Missing),
        ("NOTIFY DIGEST 8 Europe/Moscow", CommandErrorKind::BadValue),
        (
            "NOTIFY DIGEST 8 Europe;Moscow a@x.org",
            CommandErrorKind::BadValue,
        ),
        (
            "NOTIFY DIGEST 8 a@x.org Europe/Moscow",
            CommandErrorKind::BadValue,
        ),
    ] {
        let e = Command::parse(line).expect_err(line);
        assert_eq!(e.kind(), kind, "{line}: {e}");
    }
    let long = format!("NOTIFY EACH {}@x.org", "a".repeat(260));
    assert!(Command::parse(&long).is_err());
}

#[test]
fn a_notify_form_makes_the_command_its_line_makes() {
    for (fields, line) in [
        (("off", "", "", ""), "NOTIFY OFF"),
        (("off", "8", "UTC", "a@x.org"), "NOTIFY OFF"),
        (("each", "8", "", " a@x.org "), "NOTIFY EACH a@x.org"),
        (("digest", "8", "", "a@x.org"), "NOTIFY DIGEST 8 a@x.org"),
        (
            ("digest", "19", "Europe/Moscow", "a@x.org"),
            "NOTIFY DIGEST 19 Europe/Moscow a@x.org",
        ),
    ] {
        let (mode, hour, zone, address) = fields;
        assert_eq!(
            Command::notify(mode, hour, zone, address),
            Command::parse(line),
            "{line}"
        );
    }
    for (mode, hour, zone, address) in [
        ("each", "", "", ""),
        ("digest", "25", "", "a@x.org"),
        ("digest", "8", "Europe Moscow", "a@x.org"),
        ("weekly", "8", "", "a@x.org"),
    ] {
        assert!(
            Command::notify(mode, hour, zone, address).is_err(),
            "{mode} {hour} {zone:?} {address}"
        );
    }
}
