use super::*;

const HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$2Qx5Y5m0pQ0RbA2vZJ0fKQ";

#[test]
fn every_bad_value_is_named_by_its_key() {
    let text = format!(
        r#"
[tcp]
listen = "nowhere"
[limits]
max_line_bytes = 0
[[players]]
id = "alice"
secret_hash = "{HASH}"
lang = "xx"
notation = "morse"
[[players]]
id = "alice"
secret_hash = "plain"
[[games]]
id = "g 1"
white = "alice"
black = "nobody"
fen = "not a fen"
"#
    );
    let err = Config::from_toml(&text, Path::new(".")).unwrap_err();
    let keys: Vec<&str> = err.problems.iter().map(|p| p.key.as_str()).collect();
    for key in [
        "tcp.listen",
        "limits.max_line_bytes",
        "players[0].lang",
        "players[0].notation",
        "players[1].secret_hash",
        "players[1].id",
        "games[0].id",
        "games[0].black",
        "games[0].fen",
    ] {
        assert!(keys.contains(&key), "{key} not reported in {err}");
    }
}

/// Two ids among `g0`..`g999` with one 16-bit link code (there are several).
fn two_ids_with_one_code() -> (String, String) {
    let mut seen = BTreeMap::new();
    (0..1000)
        .map(|i| format!("g{i}"))
        .find_map(|id| {
            seen.insert(game_code(&id), id.clone())
                .map(|other| (other, id))
        })
        .expect("a shared code among 1000 ids")
}

/// The benchmark's 1,000 local games were refused: two shared a link code, though no game
/// travelled over a link.
#[test]
fn local_games_sharing_a_link_code_were_refused() {
    let (a, b) = two_ids_with_one_code();
    let players = format!(
        r#"
[[players]]
id = "anna"
secret_hash = "{HASH}"
[[players]]
id = "boris"
secret_hash = "{HASH}"
[[players]]
id = "ivan"
reach = "link"
link = "spb"
[[links]]
id = "spb"
transport = "tcp"
connect = "127.0.0.1:7001"
secret = "sixteen bytes at least"
"#
    );
    let local = format!(
        "{players}[[games]]\nid = \"{a}\"\nwhite = \"anna\"\nblack = \"boris\"\n\
         [[games]]\nid = \"{b}\"\nwhite = \"boris\"\nblack = \"anna\"\n"
    );
    Config::from_toml(&local, Path::new(".")).expect("local games never travel");
    let one_linked = local.replacen("black = \"boris\"", "black = \"ivan\"", 1);
    Config::from_toml(&one_linked, Path::new(".")).expect("only one of them travels");
    let both_linked = one_linked.replacen("black = \"anna\"", "black = \"ivan\"", 1);
    let err = Config::from_toml(&both_linked, Path::new(".")).unwrap_err();
    assert!(
        err.to_string()
            .contains("share a link code on link \"spb\""),
        "{err}"
    );
}

#[test]
fn links_and_players_across_them_are_checked() {
    let good = format!(
        r#"
[[players]]
id = "anna"
secret_hash = "{HASH}"
[[players]]
id = "ivan"
reach = "link"
link = "spb"
[[games]]
id = "m1"
white = "anna"
black = "ivan"
[[links]]
id = "spb"
transport = "serial"
device = "/dev/ttyUSB0"
baud = 300
parity = "even"
data_bits = 7
stop_bits = 2
flow_control = "hardware"
secret = "sixteen bytes at least"
"#
    );
    let config = Config::from_toml(&good, Path::new(".")).unwrap();
    assert_eq!(config.players["ivan"].reach, Reach::Link("spb".to_owned()));
    let link = &config.links[0];
    let LinkTransport::Serial(serial) = &link.transport else {
        panic!("serial");
    };
    assert_eq!(serial.to_string(), "/dev/ttyUSB0 300 7E2");
    assert_eq!((link.window, link.tag_bytes, link.retransmit), (4, 6, None));
    // The secret never shows in a debug print (or a log line made from one).
    assert!(!format!("{config:?}").contains("sixteen"));

    let bad = r#"
[[players]]
id = "ivan"
reach = "link"
link = "nowhere"
[[players]]
id = "olga"
reach = "link"
[[links]]
id = "a"
transport = "serial"
parity = "mark"
data_bits = 9
secret = "short"
[[links]]
id = "b"
transport = "tcp"
window = 9
tag_bytes = 3
[[links]]
id = "c"
transport = "pigeon"
secret_file = "/nonexistent/key"
"#;
    let err = Config::from_toml(bad, Path::new(".")).unwrap_err();
    let keys: Vec<&str> = err.problems.iter().map(|p| p.key.as_str()).collect();
    for key in [
        "players.ivan.link",
        "players[1].link",
        "links[0].device",
        "links[0].parity",
        "links[0].data_bits",
        "links[0].secret",
        "links[1].connect",
        "links[1].window",
        "links[1].tag_bytes",
        "links[1].secret",
        "links[2].transport",
        "links[2].secret_file",
    ] {
        assert!(keys.contains(&key), "{key} not reported in {err}");
    }
    assert!(!err.to_string().contains("short\""), "{err}");
}

#[test]
fn a_toml_error_never_quotes_the_line() {
    let err = Config::from_toml(
        "[[links]]\nsecret = \"abc\\qdef-very-secret\"\n",
        Path::new("."),
    )
    .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("line 2"), "{text}");
    assert!(!text.contains("very-secret"), "{text}");
}

#[test]
fn unknown_keys_are_refused() {
    let err = Config::from_toml("colour = \"blue\"", Path::new(".")).unwrap_err();
    assert!(err.to_string().contains("colour"), "{err}");
}

#[test]
fn the_shipped_config_loads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/ccrelay.toml");
    let config = Config::load(&path).unwrap();
    assert_eq!(config.tcp.listen.to_string(), "127.0.0.1:7878");
    assert_eq!(config.players["boris"].notation.to_string(), "lan (ru)");
    assert_eq!(config.games[0].id, "demo-1");
    assert!(config.admin_secret_hash.is_some());
}

/// Values serde reads as enums are refused under their own key, all in one run, with the
/// values that would do.
#[test]
fn a_bad_enum_value_is_named_by_its_key_with_the_choices() {
    let text = format!(
        r#"
[clock]
mode = "sundial"
[[players]]
id = "alice"
secret_hash = "{HASH}"
reach = "pigeon"
notation = "morse"
[[events]]
id = "e"
on_timeout = "shrug"
[[links]]
id = "a"
transport = "smoke"
secret = "sixteen bytes at least"
[[links]]
id = "b"
transport = "serial"
device = "/dev/ttyS0"
parity = "mark"
data_bits = 9
stop_bits = 3
flow_control = "dtr"
exclusive = "yes"
secret = "sixteen bytes at least"
[email]
address = "relay@example.org"
maildir = "/var/mail/relay"
[email.smtp]
server = "smtp.example.org"
tls = "ssl"
"#
    );
    let err = Config::from_toml(&text, Path::new(".")).unwrap_err();
    for (key, choices) in [
        ("clock.mode", "`system` or `manual`"),
        ("players[0].reach", "`tcp`, `link`, `email`"),
        (
            "players[0].notation",
            "`iccf`, `numeric`, `san`, `lan`, `uci`, `figurine`",
        ),
        ("events[0].on_timeout", "`forfeit` or `arbiter`"),
        ("links[0].transport", "`tcp`, `serial`, `radio`"),
        ("links[1].parity", "`none`, `even`, `odd`"),
        ("links[1].data_bits", "5, 6, 7 or 8"),
        ("links[1].stop_bits", "1 or 2"),
        (
            "links[1].flow_control",
            "`none`, `software`, `xonxoff`, `hardware`, `rtscts`",
        ),
        ("links[1].exclusive", "bool"),
        ("email.smtp.tls", "`tls`, `starttls`, `none`"),
    ] {
        let problem = err
            .problems
            .iter()
            .find(|p| p.key == key)
            .unwrap_or_else(|| panic!("{key} not reported in {err}"));
        assert!(
            problem.message.contains(choices),
            "{key}: {}",
            problem.message
        );
    }
    assert!(!err.to_string().contains("variant"), "{err}");
    // A bad mode is one problem, not also a complaint about `start`.
    assert!(
        !err.problems.iter().any(|p| p.key == "clock.start"),
        "{err}"
    );
}

#[test]
fn aliases_and_defaults_are_read_as_before() {
    let text = format!(
        r#"
[clock]
mode = "manual"
[[players]]
id = "alice"
secret_hash = "{HASH}"
notation = "numeric"
[[players]]
id = "boris"
secret_hash = "{HASH}"
notation = "figurine"
lang = "ru"
[[terminals]]
device = "/dev/ttyS0"
[[terminals]]
device = "/dev/ttyS1"
flow_control = "rtscts"
exclusive = false
[[terminals]]
device = "/dev/ttyS2"
flow_control = "xonxoff"
baud = 300
"#
    );
    let config = Config::from_toml(&text, Path::new(".")).unwrap();
    assert_eq!(
        config.players["alice"].notation,
        crate::notation::Notation::Iccf
    );
    assert_eq!(config.players["boris"].notation.to_string(), "figurine");
    assert_eq!(config.players["alice"].reach, Reach::Tcp);
    assert_eq!(
        config.clock.manual_start,
        Some("2026-01-01T00:00:00Z".parse().unwrap())
    );
    let t = &config.terminals;
    assert_eq!(t[0].to_string(), "/dev/ttyS0 9600 8N1");
    assert!(t[0].exclusive);
    assert_eq!(t[0].flow_control, FlowControl::None);
    assert_eq!(t[1].flow_control, FlowControl::Hardware);
    assert!(!t[1].exclusive);
    assert_eq!(t[2].flow_control, FlowControl::Software);
    assert_eq!(t[2].baud, 300);
}

/// Terminals and links read their serial keys through one flattened struct, which cannot
/// deny unknown keys the serde way: they are still refused, by key, without their value.
#[test]
fn unknown_keys_of_terminals_and_links_are_refused_by_key() {
    let text = r#"
[[terminals]]
device = "/dev/ttyS0"
colour = "green"
[[links]]
id = "a"
connect = "peer.example.org:7879"
secret = "sixteen bytes at least"
secrte = "hunter2-hunter2-hunter2"
[[links]]
id = "b"
transport = "serial"
device = "/dev/ttyUSB0"
sped = 300
secret = "sixteen bytes at least"
"#;
    let err = Config::from_toml(text, Path::new(".")).unwrap_err();
    let keys: Vec<&str> = err.problems.iter().map(|p| p.key.as_str()).collect();
    assert_eq!(
        keys,
        ["links[0].secrte", "links[1].sped", "terminals[0].colour"],
        "{err}"
    );
    assert!(!err.to_string().contains("hunter2"), "{err}");
}

#[test]
fn a_bad_serial_value_type_is_named_by_its_key() {
    let err = Config::from_toml(
        "[[terminals]]\ndevice = 5\nbaud = \"fast\"\n",
        Path::new("."),
    )
    .unwrap_err();
    let keys: Vec<&str> = err.problems.iter().map(|p| p.key.as_str()).collect();
    for key in ["terminals[0].device", "terminals[0].baud"] {
        assert!(keys.contains(&key), "{key} not reported in {err}");
    }
}

/// The link's secret and the mail passwords are read by one helper: a key file loses its
/// last line break, and an empty key file is too short (it was taken as no secret at all).
#[test]
fn a_link_secret_file_is_read_like_a_password_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("spb.key"), "sixteen bytes at least\n").unwrap();
    std::fs::write(dir.path().join("empty.key"), "\n").unwrap();
    let link = |file: &str| {
        format!("[[links]]\nid = \"spb\"\nconnect = \"peer:7879\"\nsecret_file = \"{file}\"\n")
    };
    let config = Config::from_toml(&link("spb.key"), dir.path()).unwrap();
    assert_eq!(config.links[0].secret.0, b"sixteen bytes at least");
    let err = Config::from_toml(&link("empty.key"), dir.path()).unwrap_err();
    assert_eq!(err.problems[0].key, "links[0].secret", "{err}");
    assert!(err.problems[0].message.contains("too short"), "{err}");
}
