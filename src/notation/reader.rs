//! The tolerant reader: a written token resolved against the legal moves of a position.
//!
//! A token is first read for its syntax ([`Written::parse`]); then every reading of its piece
//! letters (one per language that has such a letter) is matched against the legal moves.
//! Nothing is guessed: a reading counts only if exactly one legal move fits it, and readings in
//! different languages are weighed in tiers:
//!
//! - with the player's language given (`--lang`): that language, then English (FIDE's
//!   standard, seed 002 E.1), and no other;
//! - without it, while nothing is settled: English, then every other language;
//! - once a side's earlier moves have settled the languages it writes in: those (English first
//!   if it is one of them), then English, and no other.
//!
//! The first tier with any fitting reading decides: one move, or an error naming every reading
//! when more than one move fits. So `Кf3` reads as a knight move (no king can reach f3, and
//! every language that reads `К` as something else reads a king), and after it, that side's `C`
//! means the Russian bishop, not the French knight.
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

use std::fmt;

use shakmaty::san::San;
use shakmaty::{CastlingSide, Chess, Color, File, Move, MoveList, Position, Rank, Role, Square};

use super::lang::{Lang, LangSet, english_letter_langs};
use super::written::{Marks, PieceMark, SyntaxError, Written, WrittenMove};
use super::{Iccf, king_move_squares, san};

/// A token read as a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadMove {
    pub m: Move,
    /// The marks written with the move (check, annotation, e.p., draw offer).
    pub marks: Marks,
    /// The languages whose letters read the token as this move (all of them when the token has
    /// no piece letters).
    pub langs: LangSet,
}

/// Why a token is not a move in this position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReadMoveError {
    /// Not a move at all, in any notation.
    #[error("not a move: {0}")]
    Syntax(#[from] SyntaxError),
    /// A move in form, but no legal move fits it.
    #[error("{0}")]
    Illegal(IllegalMove),
    /// More than one legal move fits it.
    #[error("{0}")]
    Ambiguous(AmbiguousMove),
}

/// No legal move fits the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The square the token moves to, if it names one.
    pub to: Option<Square>,
    /// The legal moves to that square, written in the reader's language.
    pub legal_to_square: Vec<String>,
    /// The position has no legal moves at all.
    pub game_over: bool,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("no such move here")?;
        if self.game_over {
            return f.write_str(": the game is over, there are no legal moves");
        }
        match (self.to, self.legal_to_square.as_slice()) {
            (Some(to), []) => write!(f, "; no legal move goes to {to}"),
            (Some(to), legal) => write!(f, "; legal moves to {to}: {}", legal.join(", ")),
            (None, _) => Ok(()),
        }
    }
}

/// More than one legal move fits the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmbiguousMove {
    pub readings: Vec<Reading>,
    /// A pawn reaches the last rank but no piece to promote to was written.
    pub promotion_missing: bool,
}

/// One way to read an ambiguous token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The move in the reader's language.
    pub text: String,
    /// The languages that read the token this way.
    pub langs: LangSet,
}

impl fmt::Display for AmbiguousMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.promotion_missing {
            f.write_str("ambiguous: the piece to promote to is missing; write one of ")?;
        } else {
            f.write_str("ambiguous: it could be ")?;
        }
        let by_language = self
            .readings
            .iter()
            .any(|r| r.langs != self.readings[0].langs);
        let texts: Vec<String> = self
            .readings
            .iter()
            .map(|r| {
                if by_language {
                    format!("{} (in {})", r.text, r.langs)
                } else {
                    r.text.clone()
                }
            })
            .collect();
        f.write_str(&texts.join(" or "))
    }
}

/// Reads a game's tokens, one side's language settling as the game goes on.
#[derive(Clone, Debug)]
pub struct Reader {
    lang: Option<Lang>,
    /// Per side (white, black): the languages consistent with every piece letter it wrote.
    sides: [LangSet; 2],
}

impl Reader {
    /// A reader for a player writing in `lang`, or in any language (`None`: English first).
    /// Figurines are read in every language, so `Some(Lang::Figurine)` reads like `None`.
    pub fn new(lang: Option<Lang>) -> Reader {
        Reader {
            lang: lang.filter(|&l| l != Lang::Figurine),
            sides: [LangSet::ALL; 2],
        }
    }

    /// The language errors name moves in.
    pub fn display_lang(&self) -> Lang {
        self.lang.unwrap_or(Lang::English)
    }

    /// Reads `token` as a move in `pos`.
    pub fn read(&mut self, pos: &Chess, token: &str) -> Result<ReadMove, ReadMoveError> {
        let side = side_index(pos.turn());
        let tiers = self.tiers(side, has_cyrillic_capital(token));
        if tiers[0] == LangSet::only(Lang::English)
            && token.is_ascii()
            && let Some(read) = read_strict_san(pos, token.as_bytes())
        {
            return Ok(read);
        }
        let written = Written::parse(token)?;
        let read = resolve(pos, &written, &tiers, self.display_lang())?;
        if read.langs != LangSet::ALL && self.lang.is_none() {
            let narrowed = self.sides[side].intersection(read.langs);
            self.sides[side] = if narrowed.is_empty() {
                read.langs
            } else {
                narrowed
            };
        }
        Ok(read)
    }

    /// The languages tried in turn; the first tier with a legal reading decides, and two
    /// different legal readings in one tier are refused as ambiguous.
    fn tiers(&self, side: usize, cyrillic_capital: bool) -> [LangSet; 3] {
        // (`cyrillic_capital`: the token holds a Cyrillic capital, so its piece letter is
        // written in Cyrillic.)
        let english = LangSet::only(Lang::English);
        match self.lang {
            Some(lang) => {
                let own = LangSet::only(lang);
                if lang.is_cyrillic() && !cyrillic_capital {
                    // A Latin letter from a player who writes Cyrillic is a look-alike: `Kf1`
                    // may be their knight `К` or FIDE's king. Both weigh the same, and a
                    // move both make legal is refused, naming both (a sent move binds).
                    [own.union(english), LangSet::EMPTY, LangSet::EMPTY]
                } else {
                    // The player's language, then FIDE's English; never a third language's
                    // guess, which would bind the player to a move they may not have meant.
                    [own, english.difference(own), LangSet::EMPTY]
                }
            }
            None => {
                let state = self.sides[side];
                if state == LangSet::ALL {
                    // Nothing settled yet: English first, then any one other reading.
                    [english, LangSet::ALL.difference(english), LangSet::EMPTY]
                } else if state.contains(Lang::English) {
                    [english, state.difference(english), LangSet::EMPTY]
                } else {
                    // Settled on other languages: those, then English; no others.
                    [state, english, LangSet::EMPTY]
                }
            }
        }
    }
}

/// Whether a token holds a Cyrillic capital (a piece letter written in Cyrillic).
fn has_cyrillic_capital(token: &str) -> bool {
    token
        .chars()
        .any(|c| ('\u{0400}'..='\u{042F}').contains(&c))
}

fn side_index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
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

fn resolve(
    pos: &Chess,
    written: &Written,
    tiers: &[LangSet; 3],
    display: Lang,
) -> Result<ReadMove, ReadMoveError> {
    let legal = pos.legal_moves();
    let readings = interpretations(&written.what)?;
    let fitting: Vec<Vec<Move>> = readings.iter().map(|r| r.target.fitting(&legal)).collect();

    for tier in tiers.iter().filter(|t| !t.is_empty()) {
        let in_tier: Vec<usize> = (0..readings.len())
            .filter(|&i| {
                !readings[i].langs.intersection(*tier).is_empty() && !fitting[i].is_empty()
            })
            .collect();
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
        let mut listed: Vec<Reading> = Vec::new();
        // Name the readings in the notation the token was written in: numeric for numeric.
        let numeric = matches!(written.what, WrittenMove::Numeric { .. });
        for &i in &in_tier {
            for m in &fitting[i] {
                let text = if numeric {
                    Iccf::from_move(*m).to_string()
                } else {
                    san::write(pos, *m, display)
                };
                let langs = readings[i].langs.intersection(*tier);
                match listed.iter_mut().find(|r| r.text == text) {
                    Some(r) => r.langs = r.langs.union(langs),
                    None => listed.push(Reading { text, langs }),
                }
            }
        }
        let promotion_missing = in_tier
            .iter()
            .any(|&i| fitting[i].iter().any(|m| m.is_promotion()))
            && readings.iter().all(|r| r.target.promotion.is_none());
        return Err(ReadMoveError::Ambiguous(AmbiguousMove {
            readings: listed,
            promotion_missing,
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
                    langs: LangSet::ALL,
                })
                .collect(),
            promotion_missing: true,
        })),
    }
}
