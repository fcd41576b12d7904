//! The tolerant reader: a written token resolved against the legal moves of a position.
//!
//! A token is first read for its syntax ([`Written::parse`]); then every reading of its piece
//! letters (one per language that has such a letter) is matched against the legal moves.
//! Nothing is guessed: a reading counts only if exactly one legal move fits it, and readings in
//! different languages are weighed in tiers:
//!
//! - with the player's language given ([`ReadIn::Lang`], `--lang`): that language, then
//!   English (FIDE's standard, seed 002 E.1), and no other;
//! - without it ([`ReadIn::AnyOf`]): the languages every earlier move of the game fits (all of
//!   them at first), English first if it is one of them, and no other.
//!
//! The first tier with any fitting reading decides: one move, or an error naming every reading
//! when more than one move fits. Without a language, each move read keeps only the languages
//! that read it as that move, so the game's language settles as it goes: `Кf3` reads as a
//! knight move (no king can reach f3, and every language that reads `К` as something else
//! reads a king), and after it, the game's `C` means the Russian bishop, not the French knight.
//! A token that is a legal move only in a language the earlier moves ruled out is refused
//! ([`ReadMoveError::OutOfLanguages`]), naming both: a game never switches language silently.
//!
//! ```
//! use ccrelay::notation::Reader;
//! use shakmaty::{Chess, Position};
//!
//! let mut reader = Reader::new(None);
//! let pos = Chess::default();
//! let read = reader.read(&pos, "Кg1—f3").unwrap();
//! assert_eq!(read.m.to().to_string(), "f3");
//! assert!(reader.read(&pos, "Ke2").is_err()); // no such move here
//! ```

use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, File, Move, MoveList, Position, Rank, Role, Square};

use super::lang::{Lang, LangSet, english_letter_langs};
pub use super::refusal::{AmbiguousMove, IllegalMove, OutOfLanguages, ReadMoveError, Reading};
use super::written::{Marks, PieceMark, SyntaxError, Written, WrittenMove};
use super::{Iccf, king_move_squares, san};

/// A token read as a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadMove {
    pub m: Move,
    /// The marks written with the move (check, annotation, e.p., draw offer).
    pub marks: Marks,
    /// The languages whose letters read the token as this move and no other (all of them
    /// when the token has no piece letters).
    pub langs: LangSet,
}

/// The languages a token's piece letters are read in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ReadIn {
    /// The player's language, then English; never a third language's guess, which would bind
    /// the player to a move they may not have meant.
    Lang(Lang),
    /// Any of these, English first if it is one: the languages every earlier move fits.
    AnyOf(LangSet),
}

impl ReadIn {
    /// In `lang` if one is given, else in any of `possible`. Figurines are read in every
    /// language, so `Some(Lang::Figurine)` reads like `None`.
    pub fn new(lang: Option<Lang>, possible: LangSet) -> ReadIn {
        match lang {
            Some(lang) if lang != Lang::Figurine => ReadIn::Lang(lang),
            _ => ReadIn::AnyOf(possible),
        }
    }
}

impl From<Option<Lang>> for ReadIn {
    /// In `lang`, or in any language at all.
    fn from(lang: Option<Lang>) -> ReadIn {
        ReadIn::new(lang, LangSet::ALL)
    }
}

/// Reads a game's tokens; without a language, the game's language settles as it goes on.
#[derive(Clone, Debug)]
pub struct Reader {
    read_in: ReadIn,
}

impl Reader {
    /// A reader for a player writing in `lang`, or in any language (`None`: English first).
    /// Figurines are read in every language, so `Some(Lang::Figurine)` reads like `None`.
    pub fn new(lang: Option<Lang>) -> Reader {
        Reader::in_langs(ReadIn::from(lang))
    }

    /// A reader that goes on from languages earlier moves settled (a player's, in the relay).
    pub fn in_langs(read_in: ReadIn) -> Reader {
        Reader { read_in }
    }

    /// The languages the next token is read in: without a language, those every move read
    /// so far fits.
    pub fn read_in(&self) -> ReadIn {
        self.read_in
    }

    /// The language errors name moves in.
    pub fn display_lang(&self) -> Lang {
        match self.read_in {
            ReadIn::Lang(lang) => lang,
            ReadIn::AnyOf(_) => Lang::English,
        }
    }

    /// Reads `token` as a move in `pos`; without a language, keeps only the languages that
    /// read it as that move.
    pub fn read(&mut self, pos: &Chess, token: &str) -> Result<ReadMove, ReadMoveError> {
        let tiers = self.tiers(token);
        let read = if tiers[0] == LangSet::only(Lang::English)
            && token.is_ascii()
            && let Some(read) = read_strict_san(pos, token.as_bytes())
        {
            read
        } else {
            let written = Written::parse(token)?;
            let beyond = match self.read_in {
                ReadIn::Lang(_) => LangSet::EMPTY,
                ReadIn::AnyOf(possible) => LangSet::ALL.difference(possible),
            };
            resolve(pos, &written, &tiers, beyond, self.display_lang())?
        };
        if let ReadIn::AnyOf(possible) = &mut self.read_in {
            // The deciding tier lies within the possible languages and every one of its
            // readings fits this move alone, so at least one language stays.
            debug_assert!(!possible.intersection(read.langs).is_empty());
            *possible = possible.intersection(read.langs);
        }
        Ok(read)
    }

    /// The languages tried in turn; the first tier with a legal reading decides, and two
    /// different legal readings in one tier are refused as ambiguous.
    fn tiers(&self, token: &str) -> [LangSet; 3] {
        let english = LangSet::only(Lang::English);
        match self.read_in {
            ReadIn::Lang(lang) => {
                let own = LangSet::only(lang);
                if lang.is_cyrillic() && !has_cyrillic_capital(token) {
                    // A Latin letter from a player who writes Cyrillic is a look-alike: `Kf1`
                    // may be their knight `К` or FIDE's king. Both weigh the same, and a
                    // move both make legal is refused, naming both (a sent move binds).
                    [own.union(english), LangSet::EMPTY, LangSet::EMPTY]
                } else {
                    // The player's language, then FIDE's English.
                    [own, english.difference(own), LangSet::EMPTY]
                }
            }
            ReadIn::AnyOf(possible) if possible.contains(Lang::English) => {
                // English first, then any one other reading the earlier moves allow.
                [english, possible.difference(english), LangSet::EMPTY]
            }
            // Settled on other languages: those, and no others (not even English).
            ReadIn::AnyOf(possible) => [possible, LangSet::EMPTY, LangSet::EMPTY],
        }
    }
}

/// The moves the languages `langs` read `token` as in `pos`, each with those of them that read
/// it as that move and no other: how a token reads beside the reading [`Reader::read`] chose
/// (for a reader of a whole game, which can look ahead). Empty for a token that is no move.
pub fn readings_in(pos: &Chess, token: &str, langs: LangSet) -> Vec<(Move, LangSet)> {
    let Ok(written) = Written::parse(token) else {
        return Vec::new();
    };
    let Ok(readings) = interpretations(&written.what) else {
        return Vec::new();
    };
    let legal = pos.legal_moves();
    let mut out: Vec<(Move, LangSet)> = Vec::new();
    for reading in &readings {
        let in_langs = reading.langs.intersection(langs);
        if in_langs.is_empty() {
            continue;
        }
        // Each language has one reading: it reads the token as one move if that fits alone.
        if let [m] = reading.target.fitting(&legal).as_slice() {
            match out.iter_mut().find(|(seen, _)| seen == m) {
                Some((_, by)) => *by = by.union(in_langs),
                None => out.push((*m, in_langs)),
            }
        }
    }
    out
}

/// Whether a token holds a Cyrillic capital (a piece letter written in Cyrillic).
fn has_cyrillic_capital(token: &str) -> bool {
    token
        .chars()
        .any(|c| ('\u{0400}'..='\u{042F}').contains(&c))
}

/// The fast path: plain English SAN, read by shakmaty without allocating. Anything it does not
/// take goes the tolerant way.
fn read_strict_san(pos: &Chess, token: &[u8]) -> Option<ReadMove> {
    // shakmaty also takes a `P` pawn letter and a bare `xd5`; the tolerant reader has its own
    // view of those (`P` is a Dutch knight), so they go the slow way.
    if matches!(token.first(), Some(b'P' | b'x')) {
        return None;
    }
    let san = San::from_ascii(token).ok()?;
    let m = san.to_move(pos).ok()?;
    let langs = match san {
        San::Normal {
            role: Role::Pawn,
            promotion: None,
            ..
        }
        | San::Castle(_) => LangSet::ALL,
        San::Normal {
            role: Role::Pawn,
            promotion: Some(role),
            ..
        }
        | San::Normal { role, .. } => english_letter_langs(role),
        San::Put { .. } | San::Null => return None,
    };
    Some(ReadMove {
        m,
        marks: Marks::default(),
        langs,
    })
}

/// Which pieces a reading allows to make the move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum RoleSpec {
    Pawn,
    Piece(Role),
    /// Both squares written, no letter: UCI `g1f3`, long `e2e4`.
    Any,
}

/// One reading of a token: its squares, with the piece letters taken in some languages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Target {
    role: RoleSpec,
    castle: Option<CastlingSide>,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
}

impl Target {
    fn fits(&self, m: &Move) -> bool {
        if let Some(side) = self.castle {
            return m.castling_side() == Some(side);
        }
        let (from, king_to) = king_move_squares(*m);
        let role_fits = match self.role {
            RoleSpec::Pawn => m.role() == Role::Pawn,
            RoleSpec::Piece(role) => m.role() == role,
            RoleSpec::Any => true,
        };
        // With both squares written, the king may also be moved onto its own rook (UCI's
        // Chess960 form `e1h1`): in standard chess no other move can mean that.
        let full_from = self.from_file.is_some() && self.from_rank.is_some();
        let to_fits = king_to == self.to || (m.is_castle() && full_from && m.to() == self.to);
        let promotion_fits = match (m.promotion(), self.promotion) {
            (Some(made), Some(written)) => made == written,
            (None, Some(_)) => false,
            // A promotion without its piece fits all four: the ambiguity is reported.
            (_, None) => true,
        };
        // A pawn move without a file of departure is a push: `d5` never means `exd5`.
        let push_fits = self.role != RoleSpec::Pawn
            || self.from_file.is_some()
            || from.file() == king_to.file();
        role_fits
            && push_fits
            && to_fits
            && self.from_file.is_none_or(|f| f == from.file())
            && self.from_rank.is_none_or(|r| r == from.rank())
            && promotion_fits
    }

    fn fitting(&self, legal: &MoveList) -> Vec<Move> {
        legal.iter().filter(|m| self.fits(m)).copied().collect()
    }
}

/// A reading and the languages that read the token so.
struct Interpretation {
    target: Target,
    langs: LangSet,
}

fn mark_role(mark: &PieceMark, lang: Lang) -> Option<Role> {
    match mark {
        PieceMark::Figurine(role) | PieceMark::Uci(role) => Some(*role),
        PieceMark::Letters(shape) => lang.role_of_shape(shape),
    }
}

fn interpretations(written: &WrittenMove) -> Result<Vec<Interpretation>, SyntaxError> {
    let neutral = |target| {
        Ok(vec![Interpretation {
            target,
            langs: LangSet::ALL,
        }])
    };
    let (piece, from_file, from_rank, to, promotion) = match written {
        WrittenMove::Castle(side) => {
            return neutral(Target {
                role: RoleSpec::Piece(Role::King),
                castle: Some(*side),
                from_file: None,
                from_rank: None,
                to: Square::A1,
                promotion: None,
            });
        }
        WrittenMove::Numeric {
            from,
            to,
            promotion,
        } => {
            return neutral(Target {
                role: RoleSpec::Any,
                castle: None,
                from_file: Some(from.file()),
                from_rank: Some(from.rank()),
                to: *to,
                promotion: *promotion,
            });
        }
        WrittenMove::Algebraic {
            piece,
            from_file,
            from_rank,
            to,
            promotion,
            ..
        } => (piece, *from_file, *from_rank, *to, promotion),
    };
    let target = |role, promotion| Target {
        role,
        castle: None,
        from_file,
        from_rank,
        to,
        promotion,
    };
    let no_letter_role = if from_file.is_some() && from_rank.is_some() {
        RoleSpec::Any
    } else {
        RoleSpec::Pawn
    };
    let has_letters = |mark: &Option<PieceMark>| matches!(mark, Some(PieceMark::Letters(_)));
    if !has_letters(piece) && !has_letters(promotion) {
        let role = piece
            .as_ref()
            .and_then(|p| mark_role(p, Lang::English))
            .map_or(no_letter_role, RoleSpec::Piece);
        let promotion = promotion.as_ref().and_then(|p| mark_role(p, Lang::English));
        return neutral(target(role, promotion));
    }

    let mut readings: Vec<Interpretation> = Vec::new();
    for &lang in Lang::LETTERED {
        let role = match piece {
            None => no_letter_role,
            Some(mark) => match mark_role(mark, lang) {
                Some(role) => RoleSpec::Piece(role),
                None => continue,
            },
        };
        let promotion = match promotion {
            None => None,
            Some(mark) => match mark_role(mark, lang) {
                Some(role) => Some(role),
                None => continue,
            },
        };
        let t = target(role, promotion);
        match readings.iter_mut().find(|r| r.target == t) {
            Some(r) => r.langs.insert(lang),
            None => readings.push(Interpretation {
                target: t,
                langs: LangSet::only(lang),
            }),
        }
    }
    if readings.is_empty() {
        // Blame the mark no language knows: the piece's, or else the promotion's.
        let known = |mark: &PieceMark| Lang::LETTERED.iter().any(|&l| mark_role(mark, l).is_some());
        let unknown = match (piece, promotion) {
            (Some(p), _) if !known(p) => p,
            (_, Some(p)) => p,
            (Some(p), None) => p,
            (None, None) => return Err(SyntaxError::NoDestination),
        };
        return Err(SyntaxError::UnknownPieceLetters(unknown.to_string()));
    }
    Ok(readings)
}

/// Reads `written` in `pos`, its readings weighed in `tiers`; a token no tier reads is checked
/// against the languages `beyond` them (those earlier moves ruled out), to say so.
fn resolve(
    pos: &Chess,
    written: &Written,
    tiers: &[LangSet; 3],
    beyond: LangSet,
    display: Lang,
) -> Result<ReadMove, ReadMoveError> {
    let legal = pos.legal_moves();
    let readings = interpretations(&written.what)?;
    let fitting: Vec<Vec<Move>> = readings.iter().map(|r| r.target.fitting(&legal)).collect();
    let fitting_in = |tier: LangSet| -> Vec<usize> {
        (0..readings.len())
            .filter(|&i| !readings[i].langs.intersection(tier).is_empty() && !fitting[i].is_empty())
            .collect()
    };
    // Name the readings in the notation the token was written in: numeric for numeric.
    let list = |in_tier: &[usize], tier: LangSet| -> Vec<Reading> {
        let numeric = matches!(written.what, WrittenMove::Numeric { .. });
        let mut listed: Vec<Reading> = Vec::new();
        for &i in in_tier {
            for &m in &fitting[i] {
                let langs = readings[i].langs.intersection(tier);
                match listed.iter_mut().find(|r| r.m == m) {
                    Some(r) => r.langs = r.langs.union(langs),
                    None => listed.push(Reading {
                        text: if numeric {
                            Iccf::from_move(m).to_string()
                        } else {
                            san::write(pos, m, display)
                        },
                        m,
                        langs,
                    }),
                }
            }
        }
        listed
    };

    for &tier in tiers.iter().filter(|t| !t.is_empty()) {
        let in_tier = fitting_in(tier);
        let Some(&first) = in_tier.first() else {
            continue;
        };
        let m = fitting[first][0];
        let unique = in_tier
            .iter()
            .all(|&i| fitting[i].len() == 1 && fitting[i][0] == m);
        if unique {
            let langs = (0..readings.len())
                .filter(|&i| fitting[i].len() == 1 && fitting[i][0] == m)
                .fold(LangSet::EMPTY, |acc, i| acc.union(readings[i].langs));
            return Ok(ReadMove {
                m,
                marks: written.marks.clone(),
                langs,
            });
        }
        let promotion_missing = in_tier
            .iter()
            .any(|&i| fitting[i].iter().any(|m| m.is_promotion()))
            && readings.iter().all(|r| r.target.promotion.is_none());
        return Err(ReadMoveError::Ambiguous(AmbiguousMove {
            readings: list(&in_tier, tier),
            promotion_missing,
        }));
    }

    let elsewhere = fitting_in(beyond);
    if !elsewhere.is_empty() {
        return Err(ReadMoveError::OutOfLanguages(OutOfLanguages {
            had: LangSet::ALL.difference(beyond),
            readings: list(&elsewhere, beyond),
        }));
    }

    let to = match written.what {
        WrittenMove::Castle(_) => None,
        WrittenMove::Numeric { to, .. } | WrittenMove::Algebraic { to, .. } => Some(to),
    };
    let mut legal_to_square: Vec<String> = to
        .map(|to| {
            legal
                .iter()
                .filter(|m| king_move_squares(**m).1 == to)
                .map(|m| san::write(pos, *m, display))
                .collect()
        })
        .unwrap_or_default();
    legal_to_square.sort();
    Err(ReadMoveError::Illegal(IllegalMove {
        to,
        legal_to_square,
        game_over: legal.is_empty(),
    }))
}

/// Resolves a move given by its two squares (ICCF numeric, UCI), in no language.
pub(super) fn resolve_coordinates<P: Position>(
    pos: &P,
    from: Square,
    to: Square,
    promotion: Option<Role>,
) -> Result<Move, ReadMoveError> {
    // Nearly every pair of squares read names a legal move: checked against the moves to its
    // square alone (shakmaty's UCI reading), it needs no list of every legal move, which was
    // most of the cost of reading a journal's moves back at start. Anything else (an illegal
    // move, a promotion without its piece) is read below, for its error.
    let uci = shakmaty::uci::UciMove::Normal {
        from,
        to,
        promotion,
    };
    if let Ok(m) = uci.to_move(pos) {
        return Ok(m);
    }
    let target = Target {
        role: RoleSpec::Any,
        castle: None,
        from_file: Some(from.file()),
        from_rank: Some(from.rank()),
        to,
        promotion,
    };
    let legal = pos.legal_moves();
    match target.fitting(&legal).as_slice() {
        [m] => Ok(*m),
        [] => Err(ReadMoveError::Illegal(IllegalMove {
            to: Some(to),
            legal_to_square: Vec::new(),
            game_over: legal.is_empty(),
        })),
        many => Err(ReadMoveError::Ambiguous(AmbiguousMove {
            readings: many
                .iter()
                .map(|m| Reading {
                    text: Iccf::from_move(*m).to_string(),
                    m: *m,
                    langs: LangSet::ALL,
                })
                .collect(),
            promotion_missing: true,
        })),
    }
}
