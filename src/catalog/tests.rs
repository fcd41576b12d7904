//! The catalogs against each other and against [`Key`]: a key missing in a language, a key
//! the code asks for and no file has, or an argument misspelt fails here.

use std::collections::{BTreeMap, BTreeSet};

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};

use super::*;

/// Every message of a file and the arguments it uses.
fn messages(tongue: Tongue) -> BTreeMap<String, BTreeSet<String>> {
    let resource = fluent_syntax::parser::parse(tongue.source())
        .unwrap_or_else(|(_, errors)| panic!("{}.ftl: {errors:?}", tongue.code()));
    let mut out = BTreeMap::new();
    for entry in resource.body {
        match entry {
            Entry::Message(m) => {
                let mut args = BTreeSet::new();
                if let Some(value) = &m.value {
                    pattern_args(value, &mut args);
                }
                assert!(
                    m.attributes.is_empty(),
                    "{}: attributes are unused",
                    m.id.name
                );
                let before = out.insert(m.id.name.to_owned(), args);
                assert!(
                    before.is_none(),
                    "{}.ftl: {} twice",
                    tongue.code(),
                    m.id.name
                );
            }
            Entry::Junk { content } => panic!("{}.ftl: junk {content:?}", tongue.code()),
            Entry::Term(t) => panic!("{}.ftl: term -{} unused", tongue.code(), t.id.name),
            Entry::Comment(_) | Entry::GroupComment(_) | Entry::ResourceComment(_) => {}
        }
    }
    out
}

fn pattern_args(pattern: &Pattern<&str>, args: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            expression_args(expression, args);
        }
    }
}

fn expression_args(expression: &Expression<&str>, args: &mut BTreeSet<String>) {
    match expression {
        Expression::Select { selector, variants } => {
            inline_args(selector, args);
            for v in variants {
                pattern_args(&v.value, args);
            }
        }
        Expression::Inline(inline) => inline_args(inline, args),
    }
}

fn inline_args(inline: &InlineExpression<&str>, args: &mut BTreeSet<String>) {
    match inline {
        InlineExpression::VariableReference { id } => {
            args.insert(id.name.to_owned());
        }
        InlineExpression::Placeable { expression } => expression_args(expression, args),
        InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                inline_args(a, args);
            }
            for a in &arguments.named {
                inline_args(&a.value, args);
            }
        }
        InlineExpression::MessageReference { id, .. } => {
            panic!(
                "a message refers to another ({}): keep each one whole",
                id.name
            )
        }
        _ => {}
    }
}

#[test]
fn every_language_has_every_key_the_code_asks_for_and_no_other() {
    let wanted: BTreeSet<&str> = Key::ALL.iter().map(|k| k.id()).collect();
    assert_eq!(wanted.len(), Key::ALL.len(), "a key id twice in keys.rs");
    for tongue in Tongue::ALL {
        let have = messages(tongue);
        let have: BTreeSet<&str> = have.keys().map(String::as_str).collect();
        let missing: Vec<_> = wanted.difference(&have).collect();
        let unknown: Vec<_> = have.difference(&wanted).collect();
        assert!(
            missing.is_empty() && unknown.is_empty(),
            "{}.ftl: missing {missing:?}, not in keys.rs {unknown:?}",
            tongue.code()
        );
    }
}

#[test]
fn every_message_uses_only_the_arguments_its_key_passes_and_each_is_used() {
    let files: Vec<_> = Tongue::ALL.into_iter().map(|t| (t, messages(t))).collect();
    for key in Key::ALL {
        let declared: BTreeSet<String> = key.args().iter().map(|a| (*a).to_owned()).collect();
        let mut used_somewhere = BTreeSet::new();
        for (tongue, file) in &files {
            let used = &file[key.id()];
            let strange: Vec<_> = used.difference(&declared).collect();
            assert!(
                strange.is_empty(),
                "{}.ftl {}: uses {strange:?}, the code passes {declared:?}",
                tongue.code(),
                key.id()
            );
            used_somewhere.extend(used.iter().cloned());
        }
        assert_eq!(
            used_somewhere,
            declared,
            "{}: an argument no language says",
            key.id()
        );
    }
}

/// Sample values for every argument: a selector's values as the code passes them.
fn samples(key: Key, count: i64) -> Vec<(&'static str, Arg<'static>)> {
    key.args()
        .iter()
        .map(|name| {
            let value = match *name {
                "side" => Arg::Text("black"),
                "offer" | "cancels" | "forfeit" => Arg::Text("yes"),
                "act" => Arg::Text("accepted"),
                "claim" => Arg::Text("fifty"),
                "overdue" => Arg::Text("silence"),
                "left" | "days" | "count" | "number" | "round" | "board" | "day" => {
                    Arg::Number(count)
                }
                _ => Arg::Text("x"),
            };
            (*name, value)
        })
        .collect()
}

#[test]
fn every_message_formats_without_an_error_in_every_language() {
    for tongue in Tongue::ALL {
        let bundle = tongue.bundle();
        for key in Key::ALL {
            for count in [0, 1, 2, 5, 21] {
                let mut args = FluentArgs::new();
                for (name, value) in samples(*key, count) {
                    args.set(name, value.to_fluent());
                }
                let pattern = bundle
                    .fluent
                    .get_message(key.id())
                    .and_then(|m| m.value())
                    .unwrap_or_else(|| panic!("{}: {} has no value", tongue.code(), key.id()));
                let mut errors = Vec::new();
                let text = bundle
                    .fluent
                    .format_pattern(pattern, Some(&args), &mut errors);
                assert!(
                    errors.is_empty(),
                    "{} {}: {errors:?}",
                    tongue.code(),
                    key.id()
                );
                assert!(!text.trim().is_empty(), "{} {}", tongue.code(), key.id());
                // No isolation marks: these texts go into plain-text mails.
                assert!(!text.contains(['\u{2068}', '\u{2069}']), "{text:?}");
            }
        }
    }
}

fn reminder(tongue: Tongue, days: u32) -> String {
    tongue.say(
        Key::SummaryReminder,
        &[("days", days.into()), ("clocks", "".into())],
    )
}

fn pairs_left(tongue: Tongue, left: u32) -> String {
    tongue.say(
        Key::SummaryLinePlayed,
        &[("move", "3. Сf1—b5".into()), ("left", left.into())],
    )
}

#[test]
fn russian_counts_take_three_forms() {
    let ru = Tongue::Ru;
    for (days, text) in [
        (1, "ваш ход ждёт уже 1 день"),
        (2, "ваш ход ждёт уже 2 дня"),
        (4, "ваш ход ждёт уже 4 дня"),
        (5, "ваш ход ждёт уже 5 дней"),
        (11, "ваш ход ждёт уже 11 дней"),
        (14, "ваш ход ждёт уже 14 дней"),
        (21, "ваш ход ждёт уже 21 день"),
        (22, "ваш ход ждёт уже 22 дня"),
        (111, "ваш ход ждёт уже 111 дней"),
    ] {
        assert_eq!(reminder(ru, days), text);
    }
    for (left, tail) in [
        (0, "осталось 0 пар"),
        (1, "осталась 1 пара"),
        (2, "осталось 2 пары"),
        (5, "осталось 5 пар"),
        (12, "осталось 12 пар"),
        (23, "осталось 23 пары"),
    ] {
        assert_eq!(
            pairs_left(ru, left),
            format!("из вашей условной линии сыграно 3. Сf1—b5; {tail}")
        );
    }
}

#[test]
fn ukrainian_counts_take_three_forms() {
    let uk = Tongue::Uk;
    for (days, text) in [
        (1, "ваш хід чекає вже 1 день"),
        (3, "ваш хід чекає вже 3 дні"),
        (5, "ваш хід чекає вже 5 днів"),
        (12, "ваш хід чекає вже 12 днів"),
        (31, "ваш хід чекає вже 31 день"),
        (34, "ваш хід чекає вже 34 дні"),
    ] {
        assert_eq!(reminder(uk, days), text);
    }
    for (left, tail) in [
        (1, "залишилася 1 пара"),
        (2, "залишилося 2 пари"),
        (7, "залишилося 7 пар"),
        (21, "залишилася 21 пара"),
    ] {
        assert_eq!(
            pairs_left(uk, left),
            format!("з вашої умовної лінії зіграно 3. Сf1—b5; {tail}")
        );
    }
}

#[test]
fn english_counts_take_two_forms() {
    assert_eq!(
        reminder(Tongue::En, 1),
        "reminder your move has waited 1 day; "
    );
    assert_eq!(
        reminder(Tongue::En, 14),
        "reminder your move has waited 14 days; "
    );
}

#[test]
fn a_readers_language_picks_the_catalog() {
    assert_eq!(Tongue::of(Some(Lang::Russian)), Tongue::Ru);
    assert_eq!(Tongue::of(Some(Lang::Ukrainian)), Tongue::Uk);
    assert_eq!(Tongue::of(Some(Lang::German)), Tongue::En);
    assert_eq!(Tongue::of(None), Tongue::En);
    for tongue in Tongue::ALL {
        assert_eq!(Tongue::from_code(tongue.code()), Some(tongue));
        assert_eq!(Tongue::of(Some(tongue.lang())), tongue);
    }
}

#[test]
fn the_best_spoken_language_wins() {
    assert_eq!(
        Tongue::from_accept("ru-RU,ru;q=0.9,en;q=0.8"),
        Some(Tongue::Ru)
    );
    assert_eq!(
        Tongue::from_accept("de,en;q=0.5,ru;q=0.4"),
        Some(Tongue::En)
    );
    assert_eq!(Tongue::from_accept("fr, *;q=0.1"), None);
    assert_eq!(Tongue::from_accept("en;q=0.2, ru;q=0.9"), Some(Tongue::Ru));
    assert_eq!(
        Tongue::from_accept("uk-UA,uk;q=0.9,ru;q=0.8"),
        Some(Tongue::Uk)
    );
    assert_eq!(
        Tongue::from_accept("de, uk;q=0.3, en;q=0.2"),
        Some(Tongue::Uk)
    );
}

#[test]
fn a_mails_paragraphs_keep_their_lines() {
    let text = Tongue::En.say(
        Key::MailWelcome,
        &[
            ("secret", "s3cr3t".into()),
            ("relay", "relay@x.test".into()),
        ],
    );
    assert_eq!(
        text,
        "Your key: s3cr3t\n\
         Keep it to yourself: it proves a mail is yours.\n\n\
         To move, write to relay@x.test with the game id and key:s3cr3t in the subject\n\
         and the move on a line of its own, in any notation (12. Nf3, 7163, g1-f3);\n\
         or reply to the relay's last mail about the game."
    );
}
