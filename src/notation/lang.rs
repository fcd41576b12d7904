//! The languages players write piece letters in, and the letters themselves.
//!
//! One letter means different pieces in different languages (`R` is a French king and an
//! English rook; `K` is an English king and a Russian knight), so a letter is never read on its
//! own: the reader asks every language what the letter means and keeps the readings apart
//! (see [`super::reader`]). Letters are compared by *shape* (see [`super::fold`]), because real
//! text mixes scripts: seed 004 writes a Latin `K` for the Russian knight `К`.
//!
//! ```
//! use ccrelay::notation::Lang;
//! use shakmaty::Role;
//!
//! let ru: Lang = "ru".parse().unwrap();
//! assert_eq!(ru.letter(Role::King), "Кр");
//! assert_eq!(ru.role_of_shape("K"), Some(Role::Knight));
//! assert_eq!(Lang::English.role_of_shape("K"), Some(Role::King));
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use shakmaty::Role;

use super::fold::fold_piece_letters;

/// A language's piece letters, in the order king, queen, rook, bishop, knight.
type Letters = [&'static str; 5];

const ROLES: [Role; 5] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
];

macro_rules! languages {
    ($($variant:ident $code:literal $name:literal [$k:literal $q:literal $r:literal $b:literal $n:literal];)*) => {
        /// A language of piece letters (DESIGN.md lists them), or figurines.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Lang {
            $(#[doc = $name] $variant,)*
            /// Figurines ♔♕♖♗♘: written by no one language, read by all.
            Figurine,
        }

        impl Lang {
            /// Every language with letters (figurines excluded), English first.
            pub const LETTERED: &'static [Lang] = &[$(Lang::$variant,)*];

            /// The code used on the command line and in config files (`en`, `ru`, ...).
            pub fn code(self) -> &'static str {
                match self { $(Lang::$variant => $code,)* Lang::Figurine => "figurine" }
            }

            /// The language's English name.
            pub fn name(self) -> &'static str {
                match self { $(Lang::$variant => $name,)* Lang::Figurine => "figurine" }
            }

            fn letters(self) -> Letters {
                match self {
                    $(Lang::$variant => [$k, $q, $r, $b, $n],)*
                    Lang::Figurine => ["♔", "♕", "♖", "♗", "♘"],
                }
            }
        }
    };
}

languages! {
    English "en" "English" ["K" "Q" "R" "B" "N"];
    Russian "ru" "Russian" ["Кр" "Ф" "Л" "С" "К"];
    Ukrainian "uk" "Ukrainian" ["Кр" "Ф" "Т" "С" "К"];
    German "de" "German" ["K" "D" "T" "L" "S"];
    French "fr" "French" ["R" "D" "T" "F" "C"];
    Spanish "es" "Spanish" ["R" "D" "T" "A" "C"];
    Italian "it" "Italian" ["R" "D" "T" "A" "C"];
    Dutch "nl" "Dutch" ["K" "D" "T" "L" "P"];
    Polish "pl" "Polish" ["K" "H" "W" "G" "S"];
    Czech "cs" "Czech" ["K" "D" "V" "S" "J"];
    Hungarian "hu" "Hungarian" ["K" "V" "B" "F" "H"];
    Swedish "sv" "Swedish" ["K" "D" "T" "L" "S"];
    Danish "da" "Danish" ["K" "D" "T" "L" "S"];
    Norwegian "no" "Norwegian" ["K" "D" "T" "L" "S"];
    Portuguese "pt" "Portuguese" ["R" "D" "T" "B" "C"];
    Romanian "ro" "Romanian" ["R" "D" "T" "N" "C"];
    Finnish "fi" "Finnish" ["K" "D" "T" "L" "R"];
    Estonian "et" "Estonian" ["K" "L" "V" "O" "R"];
    Icelandic "is" "Icelandic" ["K" "D" "H" "B" "R"];
    Bulgarian "bg" "Bulgarian" ["Ц" "Д" "Т" "О" "К"];
}

impl Lang {
    /// The letter (or letters: Russian `Кр`) this language writes for `role`; empty for a pawn.
    pub fn letter(self, role: Role) -> &'static str {
        match ROLES.iter().position(|&r| r == role) {
            Some(i) => self.letters()[i],
            None => "",
        }
    }

    /// The piece this language means by a letter of the given shape (already folded by
    /// [`fold_piece_letters`]), if any.
    pub fn role_of_shape(self, shape: &str) -> Option<Role> {
        let index = Lang::LETTERED.iter().position(|&l| l == self)?;
        shapes()[index]
            .iter()
            .position(|s| s == shape)
            .map(|i| ROLES[i])
    }

    /// The languages that read this language's letter for `role` as the same piece.
    pub fn same_letter(self, role: Role) -> LangSet {
        let shape = fold_piece_letters(self.letter(role));
        Lang::LETTERED
            .iter()
            .copied()
            .filter(|l| l.role_of_shape(&shape) == Some(role))
            .fold(LangSet::EMPTY, |mut set, l| {
                set.insert(l);
                set
            })
    }

    /// Whether this language writes in the Russian manner (`—` between squares, `:` for a
    /// capture, `0—0`), which long algebraic output follows.
    pub fn is_cyrillic(self) -> bool {
        matches!(self, Lang::Russian | Lang::Ukrainian | Lang::Bulgarian)
    }

    fn bit(self) -> u32 {
        match Lang::LETTERED.iter().position(|&l| l == self) {
            Some(i) => 1 << i,
            None => 0,
        }
    }
}

/// Every lettered language's letters folded to shapes, computed once.
fn shapes() -> &'static [[String; 5]] {
    static SHAPES: OnceLock<Vec<[String; 5]>> = OnceLock::new();
    SHAPES.get_or_init(|| {
        Lang::LETTERED
            .iter()
            .map(|l| l.letters().map(fold_piece_letters))
            .collect()
    })
}

/// For each English piece letter, the languages that read it as the same piece.
pub(crate) fn english_letter_langs(role: Role) -> LangSet {
    static SETS: OnceLock<[LangSet; 5]> = OnceLock::new();
    let sets = SETS.get_or_init(|| ROLES.map(|r| Lang::English.same_letter(r)));
    ROLES
        .iter()
        .position(|&r| r == role)
        .map_or(LangSet::ALL, |i| sets[i])
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A language code that names no supported language.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown language {0:?} (known: {known}, figurine)", known = known_codes())]
pub struct UnknownLang(pub String);

fn known_codes() -> String {
    Lang::LETTERED
        .iter()
        .map(|l| l.code())
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for Lang {
    type Err = UnknownLang;

    fn from_str(s: &str) -> Result<Lang, UnknownLang> {
        let wanted = s.trim().to_ascii_lowercase();
        Lang::LETTERED
            .iter()
            .copied()
            .chain([Lang::Figurine])
            .find(|l| l.code() == wanted || l.name().eq_ignore_ascii_case(&wanted))
            .ok_or_else(|| UnknownLang(s.to_owned()))
    }
}

/// A set of lettered languages, as a bit mask over [`Lang::LETTERED`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct LangSet(u32);

impl LangSet {
    pub const EMPTY: LangSet = LangSet(0);
    pub const ALL: LangSet = LangSet((1 << Lang::LETTERED.len()) - 1);

    pub fn only(lang: Lang) -> LangSet {
        LangSet(lang.bit())
    }

    pub fn contains(self, lang: Lang) -> bool {
        self.0 & lang.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many languages the set holds.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub fn union(self, other: LangSet) -> LangSet {
        LangSet(self.0 | other.0)
    }

    pub fn intersection(self, other: LangSet) -> LangSet {
        LangSet(self.0 & other.0)
    }

    pub fn difference(self, other: LangSet) -> LangSet {
        LangSet(self.0 & !other.0)
    }

    pub fn insert(&mut self, lang: Lang) {
        self.0 |= lang.bit();
    }

    /// The languages in the set, in [`Lang::LETTERED`] order.
    pub fn iter(self) -> impl Iterator<Item = Lang> {
        Lang::LETTERED
            .iter()
            .copied()
            .filter(move |l| self.contains(*l))
    }

    /// The languages' codes joined by commas (`fr,es`): the set as a record keeps it, read
    /// back by [`LangSet::from_codes`].
    pub fn codes(self) -> String {
        self.iter().map(Lang::code).collect::<Vec<_>>().join(",")
    }

    /// A set written by [`LangSet::codes`]; figurines are no lettered language.
    pub fn from_codes(codes: &str) -> Result<LangSet, UnknownLang> {
        let mut set = LangSet::EMPTY;
        for code in codes.split(',').filter(|c| !c.is_empty()) {
            match code.parse::<Lang>() {
                Ok(Lang::Figurine) | Err(_) => return Err(UnknownLang(code.to_owned())),
                Ok(lang) => set.insert(lang),
            }
        }
        Ok(set)
    }
}

impl fmt::Display for LangSet {
    /// Names the languages, shortening the full set to "any language".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == LangSet::ALL {
            return f.write_str("any language");
        }
        let names: Vec<&str> = self.iter().map(Lang::name).collect();
        f.write_str(&names.join("/"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_names_five_distinct_pieces() {
        for &lang in Lang::LETTERED {
            let shapes: Vec<String> = ROLES
                .iter()
                .map(|&r| fold_piece_letters(lang.letter(r)))
                .collect();
            for (i, a) in shapes.iter().enumerate() {
                for b in &shapes[i + 1..] {
                    assert_ne!(a, b, "{lang} has two pieces with one letter");
                }
            }
        }
    }

    #[test]
    fn one_letter_different_pieces() {
        assert_eq!(Lang::French.role_of_shape("R"), Some(Role::King));
        assert_eq!(Lang::English.role_of_shape("R"), Some(Role::Rook));
        assert_eq!(Lang::Russian.role_of_shape("Kp"), Some(Role::King));
        assert_eq!(Lang::Russian.role_of_shape("C"), Some(Role::Bishop));
        assert_eq!(Lang::French.role_of_shape("C"), Some(Role::Knight));
    }

    #[test]
    fn a_set_reads_back_from_its_codes() {
        let mut set = LangSet::only(Lang::French);
        set.insert(Lang::Spanish);
        assert_eq!(set.codes(), "fr,es");
        assert_eq!(LangSet::from_codes(&set.codes()), Ok(set));
        assert_eq!(LangSet::from_codes(&LangSet::ALL.codes()), Ok(LangSet::ALL));
        assert_eq!(LangSet::from_codes(""), Ok(LangSet::EMPTY));
        assert!(LangSet::from_codes("fr,xx").is_err());
        assert!(LangSet::from_codes("figurine").is_err());
    }

    #[test]
    fn parse_codes_and_names() {
        assert_eq!("de".parse::<Lang>(), Ok(Lang::German));
        assert_eq!("Russian".parse::<Lang>(), Ok(Lang::Russian));
        assert_eq!("figurine".parse::<Lang>(), Ok(Lang::Figurine));
        assert!("xx".parse::<Lang>().is_err());
    }
}
