//! Every word a person reads, one catalog per language: English, Russian and Ukrainian, as
//! Project Fluent files (`en.ftl`, `ru.ftl`, `uk.ftl` beside this file, built into the
//! binary). Mail subjects and bodies, the mail footer, the web pages' words and how a game
//! ended are asked for here by [`Key`]; a translator rewords a file without touching code, and
//! the plural forms (Russian and Ukrainian have three) are Fluent's, by the language's rules.
//!
//! The line protocol's pushes and replies are not here: they are the protocol (clients parse
//! their English words) and stay in `relay/render/`. What a reader of another language gets
//! over a line is the moves in their own letters, which is notation's business.
//!
//! Adding a language: a file `xx.ftl` with every key of `en.ftl`, a [`Tongue`] for it, and its
//! line in `Tongue::source`; the tests below fail until every key and argument is there.

mod keys;

use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

use crate::notation::Lang;

pub use keys::Key;

/// A language the catalogs speak.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tongue {
    En,
    Ru,
    Uk,
}

impl Tongue {
    /// Every language with a catalog, English (the fallback) first.
    pub const ALL: [Tongue; 3] = [Tongue::En, Tongue::Ru, Tongue::Uk];

    /// The catalog for a reader of `lang`: Russian and Ukrainian have their own, every other
    /// language (and none) reads English.
    pub fn of(lang: Option<Lang>) -> Tongue {
        match lang {
            Some(Lang::Russian) => Tongue::Ru,
            Some(Lang::Ukrainian) => Tongue::Uk,
            _ => Tongue::En,
        }
    }

    /// The language's code (`en`, `ru`, `uk`): HTML's `lang`, the pages' `?lang=`.
    pub fn code(self) -> &'static str {
        match self {
            Tongue::En => "en",
            Tongue::Ru => "ru",
            Tongue::Uk => "uk",
        }
    }

    /// The language of a code, `None` for one without a catalog.
    pub fn from_code(code: &str) -> Option<Tongue> {
        Tongue::ALL.into_iter().find(|t| t.code() == code)
    }

    /// The language whose piece letters this catalog's reader reads by default.
    pub fn lang(self) -> Lang {
        match self {
            Tongue::En => Lang::English,
            Tongue::Ru => Lang::Russian,
            Tongue::Uk => Lang::Ukrainian,
        }
    }

    /// The first of the browser's `Accept-Language` ranges that a catalog speaks, by quality.
    pub fn from_accept(header: &str) -> Option<Tongue> {
        let mut ranges: Vec<(f32, Tongue)> = header
            .split(',')
            .take(32)
            .filter_map(|range| {
                let mut parts = range.split(';');
                let tag = parts.next()?.trim().to_ascii_lowercase();
                let q = parts
                    .find_map(|p| p.trim().strip_prefix("q=")?.parse::<f32>().ok())
                    .unwrap_or(1.0);
                Some((q, Tongue::from_code(tag.split('-').next()?)?))
            })
            .collect();
        // Stable: of equal quality, the first named wins.
        ranges.sort_by(|a, b| b.0.total_cmp(&a.0));
        ranges.first().map(|r| r.1)
    }

    /// The catalog's text.
    fn source(self) -> &'static str {
        match self {
            Tongue::En => include_str!("en.ftl"),
            Tongue::Ru => include_str!("ru.ftl"),
            Tongue::Uk => include_str!("uk.ftl"),
        }
    }

    fn bundle(self) -> &'static Bundle {
        &BUNDLES[self as usize]
    }

    /// `key`'s text in this language with `args` (each of the key's arguments by name:
    /// a text or a number; numbers choose the plural form).
    pub fn say(self, key: Key, args: &[(&str, Arg<'_>)]) -> String {
        debug_assert!(
            args.len() == key.args().len() && args.iter().all(|(n, _)| key.args().contains(n)),
            "{key:?} takes {:?}",
            key.args()
        );
        let mut fluent = FluentArgs::with_capacity(args.len());
        for (name, value) in args {
            fluent.set(*name, value.to_fluent());
        }
        self.bundle().format(key, Some(&fluent))
    }

    /// `key`'s text, for a key without arguments (a word of the web pages).
    pub fn word(self, key: Key) -> String {
        self.say(key, &[])
    }
}

/// A value for a message's argument.
#[derive(Copy, Clone, Debug)]
pub enum Arg<'a> {
    Text(&'a str),
    /// A count: its plural form is the language's.
    Number(i64),
}

impl Arg<'_> {
    fn to_fluent(self) -> FluentValue<'static> {
        match self {
            Arg::Text(text) => FluentValue::from(text.to_owned()),
            Arg::Number(n) => FluentValue::from(n),
        }
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(text: &'a str) -> Arg<'a> {
        Arg::Text(text)
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(text: &'a String) -> Arg<'a> {
        Arg::Text(text)
    }
}

macro_rules! counts {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg<'_> {
            fn from(n: $t) -> Self {
                Arg::Number(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
counts!(u8, u16, u32, u64, usize, i32, i64);

/// One language's messages, parsed once.
struct Bundle {
    fluent: FluentBundle<FluentResource>,
}

impl Bundle {
    fn load(tongue: Tongue) -> Bundle {
        // The files are part of the build and their tests parse them: a parse error here is a
        // bug caught before release, and Fluent still keeps every message it could read.
        let resource = FluentResource::try_new(tongue.source().to_owned())
            .unwrap_or_else(|(resource, _errors)| resource);
        let id: LanguageIdentifier = tongue.code().parse().unwrap_or_default();
        let mut fluent = FluentBundle::new_concurrent(vec![id]);
        // Plain-text mails and pushes: no Unicode isolation marks around arguments.
        fluent.set_use_isolating(false);
        // NUMBER(), for the ordinals a clock's day is written with (`21st`); the bundle is
        // new, so the name cannot be taken already.
        let _ = fluent.add_builtins();
        let _ = fluent.add_resource(resource);
        Bundle { fluent }
    }

    /// The message's text; a message missing from the file (the tests see to it that none is)
    /// falls back to English, then to its id.
    fn format(&self, key: Key, args: Option<&FluentArgs<'_>>) -> String {
        let Some(pattern) = self.fluent.get_message(key.id()).and_then(|m| m.value()) else {
            let english = Tongue::En.bundle();
            if !std::ptr::eq(self, english) {
                return english.format(key, args);
            }
            return key.id().to_owned();
        };
        let mut errors = Vec::new();
        let text = self.fluent.format_pattern(pattern, args, &mut errors);
        debug_assert!(errors.is_empty(), "{}: {errors:?}", key.id());
        text.into_owned()
    }
}

static BUNDLES: LazyLock<[Bundle; 3]> = LazyLock::new(|| Tongue::ALL.map(Bundle::load));

#[cfg(test)]
mod tests;
