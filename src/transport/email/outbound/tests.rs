//! Outbound mail: the footer from the catalog, and message ids that name their games.

use super::*;

/// The footers as they were written before the catalog: the catalog's say the same.
const FOOTER_EN: &str = "To answer, reply to this mail with your move on a line of its own \
(\"12. Nf3\", \"12. 7163\", in any notation), optionally \"repeat: <their last move>\"; \
or \"I offer a draw\", \"I accept the draw\", \"I decline the draw\", \"I resign\". \
Keep the game id first in the subject and your key in it (key:YOUR-KEY), or write to the \
relay's plus address.";

const FOOTER_RU: &str = "Чтобы ответить, напишите ход отдельной строкой (\"12. Кf3\", \
\"12. 7163\"), можно с повтором: \"повтор: <их последний ход>\"; или \"предлагаю ничью\", \
\"принимаю ничью\", \"отклоняю ничью\", \"сдаюсь\". Номер партии оставьте первым в теме, \
вместе с ключом (key:ВАШ-КЛЮЧ).";

#[test]
fn the_footer_comes_from_the_catalog_unchanged() {
    assert_eq!(
        footer(Tongue::En),
        format!("\n-- \n{}\n", wrap(FOOTER_EN, 72))
    );
    assert_eq!(
        footer(Tongue::Ru),
        format!("\n-- \n{}\n", wrap(FOOTER_RU, 72))
    );
    let uk = footer(Tongue::Uk);
    assert!(uk.contains("Щоб відповісти"), "{uk}");
    let uk = uk.split_whitespace().collect::<Vec<_>>().join(" ");
    // Every phrase it teaches is one the mail reader knows.
    for phrase in [
        "пропоную нічию",
        "приймаю нічию",
        "відхиляю нічию",
        "здаюся",
    ] {
        assert!(uk.contains(&format!("\"{phrase}\"")), "{phrase}");
        assert!(
            crate::command::letter::read(phrase, "g1").is_ok(),
            "{phrase}"
        );
    }
}

#[test]
fn message_ids_name_games() {
    let d = "relay.example.org";
    assert_eq!(
        game_of_message_id("<ccrelay.o17.demo-1@relay.example.org>", d),
        Some("demo-1".to_owned())
    );
    assert_eq!(
        game_of_message_id("ccrelay.game.g.2@RELAY.example.org", d),
        Some("g.2".to_owned())
    );
    assert_eq!(game_of_message_id("<ccrelay.o17.demo-1@evil.org>", d), None);
    assert_eq!(
        game_of_message_id("<x.o17.demo-1@relay.example.org>", d),
        None
    );
}
