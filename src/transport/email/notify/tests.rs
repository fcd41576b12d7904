//! The notice mails as a reader gets them: in their language, the move in their notation,
//! the picture a PNG shown inline, the headers of RFC 8058.

use super::*;
use crate::command::Command;
use crate::relay::testing;
use crate::relay::{Channel, Request, Sender};
use mail_parser::MimeHeaders;

const PLAYERS: &str = r#"
[clock]
mode = "manual"
start = "2027-01-01T00:00:00Z"

[[players]]
id = "alice"
name = "Алиса"
secret_hash = "HASH"
notation = "lan"
lang = "ru"

[[players]]
id = "boris"
name = "Boris"
secret_hash = "HASH"
notation = "san"

[[events]]
id = "e1"
time_control = "10 moves in 50 days"

[[games]]
id = "g1"
event = "e1"
white = "alice"
black = "boris"

[[games]]
id = "g2"
white = "boris"
black = "alice"
"#;

fn email() -> EmailConfig {
    let text = "data_dir = \"/nonexistent\"\n[email]\naddress = \"relay@chess.example.org\"\nmaildir = \"/nonexistent\"\n[email.smtp]\nserver = \"127.0.0.1\"\n";
    crate::config::Config::from_toml(text, std::path::Path::new("/"))
        .expect("config")
        .email
        .expect("email")
}

async fn play(relay: &crate::relay::Relay, who: &str, line: &str) {
    let sender = Sender {
        player: who.to_owned(),
        admin: false,
        channel: Channel::Tcp,
    };
    let reply = relay
        .call(Request::new(sender, Command::parse(line).expect(line)))
        .await;
    assert!(reply.status.is_success(), "{line}: {}", reply.text);
}

fn reading<'a>(tongue: Tongue, notation: Notation) -> Reading<'a> {
    Reading {
        id: 42,
        to: "alice@example.org",
        tongue,
        notation,
        public_url: "https://chess.example.org",
        unsubscribe: "https://chess.example.org/notify/unsubscribe?p=alice&t=00ff",
    }
}

/// The PNG's width and height, read from its header; `None` if it is no PNG.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(..8)? != b"\x89PNG\r\n\x1a\n" || bytes.get(12..16)? != b"IHDR" {
        return None;
    }
    let word = |at: usize| Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    Some((word(16)?, word(20)?))
}

#[tokio::test]
async fn a_move_waiting_is_mailed_in_the_readers_language_with_its_picture() {
    let spawned = testing::spawn(PLAYERS).await;
    play(&spawned.relay, "alice", "MOVE g1 e4").await;
    play(&spawned.relay, "boris", "MOVE g1 e5").await;
    let games = spawned.relay.games_of("alice").await.expect("games");
    let view = games.iter().find(|g| g.id == "g1").expect("g1");
    let lan = Notation::Lan(crate::notation::Lang::Russian);
    assert_eq!(last_move(view, lan).as_deref(), Some("1... e7—e5"));
    let mail = your_move_mail(&email(), &reading(Tongue::Ru, lan), view).expect("mail");
    let parsed = mail_parser::MessageParser::default()
        .parse(&mail.bytes[..])
        .expect("parse");
    assert_eq!(
        parsed.subject(),
        Some("Ваш ход в партии g1 (Алиса – Boris)")
    );
    let text = parsed.body_text(0).expect("text");
    assert!(
        text.contains("Boris сыграл 1... e7—e5 в партии g1: ваш ход."),
        "{text}"
    );
    assert!(
        text.contains("https://chess.example.org/play/games/g1"),
        "{text}"
    );
    // The clocks, in the reader's language.
    let clocks = clock_words(Tongue::Ru, view.clocks.as_ref().expect("clocks"));
    assert!(text.contains(&clocks), "{clocks} in {text}");
    assert!(
        text.contains("https://chess.example.org/play/notify"),
        "{text}"
    );
    let html = parsed.body_html(0).expect("html");
    assert!(
        html.contains("src=\"cid:board.g1@chess.example.org\""),
        "{html}"
    );
    let raw = String::from_utf8_lossy(&mail.bytes);
    assert!(
        raw.contains(
            "List-Unsubscribe: <https://chess.example.org/notify/unsubscribe?p=alice&t=00ff>"
        ),
        "{raw}"
    );
    assert!(
        raw.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"),
        "{raw}"
    );
    assert!(raw.contains("Auto-Submitted: auto-generated"), "{raw}");
    assert!(
        raw.contains("Message-ID: <ccrelay.o42.g1@chess.example.org>"),
        "{raw}"
    );
    let picture = parsed
        .attachments()
        .find(|p| p.content_id() == Some("board.g1@chess.example.org"))
        .expect("the picture");
    let content_type = picture.content_type().expect("its type");
    assert_eq!(
        (
            content_type.c_type.as_ref(),
            content_type.c_subtype.as_deref()
        ),
        ("image", Some("png"))
    );
    assert_eq!(
        png_size(picture.contents()),
        Some((PICTURE_PIXELS, PICTURE_PIXELS))
    );
}

#[tokio::test]
async fn a_game_started_and_a_digest_say_what_waits() {
    let spawned = testing::spawn(PLAYERS).await;
    play(&spawned.relay, "boris", "MOVE g2 d4").await;
    let games = spawned.relay.games_of("alice").await.expect("games");
    let waiting: Vec<&GameView> = games.iter().filter(|g| g.my_turn()).collect();
    assert_eq!(waiting.len(), 2);
    let g1 = waiting.iter().find(|g| g.id == "g1").expect("g1");
    let started = your_move_mail(&email(), &reading(Tongue::En, Notation::Iccf), g1).expect("mail");
    let parsed = mail_parser::MessageParser::default()
        .parse(&started.bytes[..])
        .expect("parse");
    let text = parsed.body_text(0).expect("text");
    assert!(
        text.contains("The game g1 against Boris has started"),
        "{text}"
    );
    let digest =
        digest_mail(&email(), &reading(Tongue::Ru, Notation::Iccf), &waiting).expect("digest");
    let parsed = mail_parser::MessageParser::default()
        .parse(&digest.bytes[..])
        .expect("parse");
    assert_eq!(parsed.subject(), Some("2 партии ждут вашего хода"));
    let text = parsed.body_text(0).expect("text");
    assert!(
        text.contains("g1 (Алиса – Boris): партия началась"),
        "{text}"
    );
    assert!(text.contains("g2 (Boris – Алиса): 1. 4244"), "{text}");
    assert_eq!(parsed.attachments().count(), 2);
    for part in parsed.attachments() {
        assert!(png_size(part.contents()).is_some());
    }
}

#[test]
fn the_digests_subject_counts_in_the_readers_language() {
    let say =
        |tongue: Tongue, n: usize| tongue.say(Key::NotifyDigestSubject, &[("count", n.into())]);
    assert_eq!(say(Tongue::En, 1), "One game waits for your move");
    assert_eq!(say(Tongue::En, 3), "3 games wait for your move");
    assert_eq!(say(Tongue::Ru, 1), "1 партия ждёт вашего хода");
    assert_eq!(say(Tongue::Ru, 3), "3 партии ждут вашего хода");
    assert_eq!(say(Tongue::Ru, 5), "5 партий ждут вашего хода");
    assert_eq!(say(Tongue::Ru, 21), "21 партия ждёт вашего хода");
    assert_eq!(say(Tongue::Uk, 2), "2 партії чекають на ваш хід");
    assert_eq!(say(Tongue::Uk, 11), "11 партій чекають на ваш хід");
}
