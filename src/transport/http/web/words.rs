//! The web pages' words, a typed view of the catalog (its `web-*` and `end-*` keys, in
//! `src/catalog/*.ftl`) filled once per language. A page asks for its [`Words`] by the
//! viewer's language and never writes a visible word of its own.

use std::sync::LazyLock;

use shakmaty::Color;

use crate::catalog::Key;
pub use crate::catalog::Tongue;
use crate::game::EndReason;

macro_rules! words {
    ($($field:ident $key:ident,)*) => {
        /// The texts of the pages in one language.
        pub struct Words {
            $(pub $field: String,)*
            /// How a game ended: every `end-*` key and its words.
            ends: Vec<(Key, String)>,
        }

        impl Words {
            fn load(tongue: Tongue) -> Words {
                Words {
                    $($field: tongue.word(Key::$key),)*
                    ends: Key::ALL
                        .iter()
                        .filter(|k| k.id().starts_with("end-"))
                        .map(|k| (*k, tongue.word(*k)))
                        .collect(),
                }
            }
        }
    };
}

words! {
    title WebTitle,
    games WebGames,
    events WebEvents,
    event WebEvent,
    game WebGame,
    white WebWhite,
    black WebBlack,
    moves WebMoves,
    to_move WebToMove,
    result WebResult,
    last_move WebLastMove,
    in_progress WebInProgress,
    awaiting_arbiter WebAwaitingArbiter,
    no_games WebNoGames,
    page WebPage,
    of WebOf,
    previous WebPrevious,
    next WebNext,
    time_control WebTimeControl,
    clock WebClock,
    no_limit WebNoLimit,
    on_leave WebOnLeave,
    draw_offer WebDrawOffer,
    chain_head WebChainHead,
    download_pgn WebDownloadPgn,
    notation WebNotation,
    language WebLanguage,
    show WebShow,
    position_after WebPositionAfter,
    start_position WebStartPosition,
    latest WebLatest,
    delayed WebDelayed,
    finished_only WebFinishedOnly,
    crosstable WebCrosstable,
    place WebPlace,
    player WebPlayer,
    points WebPoints,
    played WebPlayed,
    sb WebSb,
    wins WebWins,
    pairings WebPairings,
    round WebRound,
    site WebSite,
    started WebStarted,
    not_found WebNotFound,
    not_found_text WebNotFoundText,
    bad_request WebBadRequest,
    home WebHome,
    arbiter WebArbiter,
    login WebLogin,
    logout WebLogout,
    secret WebSecret,
    login_failed WebLoginFailed,
    logged_in WebLoggedIn,
    live WebLive,
    board_of WebBoardOf,
    days WebDays,
    over_by WebOverBy,
    unavailable WebUnavailable,
}

/// The key of the words for how a game ended.
fn end_key(reason: EndReason) -> Key {
    match reason {
        EndReason::Checkmate => Key::EndCheckmate,
        EndReason::Stalemate => Key::EndStalemate,
        EndReason::InsufficientMaterial => Key::EndInsufficientMaterial,
        EndReason::Resignation => Key::EndResignation,
        EndReason::Agreement => Key::EndAgreement,
        EndReason::Repetition => Key::EndRepetition,
        EndReason::FiftyMoves => Key::EndFiftyMoves,
        EndReason::TimeForfeit => Key::EndTimeForfeit,
        EndReason::Silence => Key::EndSilence,
        EndReason::Adjudication => Key::EndAdjudication,
        EndReason::NoMoves => Key::EndNoMoves,
        EndReason::DrawRule => Key::EndDrawRule,
        EndReason::Withdrawal => Key::EndWithdrawal,
    }
}

static WORDS: LazyLock<[Words; 3]> = LazyLock::new(|| Tongue::ALL.map(Words::load));

impl Words {
    /// The pages' words in `tongue`.
    pub fn of(tongue: Tongue) -> &'static Words {
        let i = Tongue::ALL.iter().position(|t| *t == tongue).unwrap_or(0);
        &WORDS[i]
    }

    pub fn color(&self, color: Color) -> &str {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// How a game ended.
    pub fn reason(&self, reason: EndReason) -> &str {
        let key = end_key(reason);
        self.ends
            .iter()
            .find(|(k, _)| *k == key)
            .map_or("", |(_, words)| words.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_way_a_game_ends_has_its_words_in_every_language() {
        for tongue in Tongue::ALL {
            let w = Words::of(tongue);
            for key in Key::ALL.iter().filter(|k| k.id().starts_with("end-")) {
                assert!(w.ends.iter().any(|(k, _)| k == key), "{tongue:?} {key:?}");
            }
            assert!(!w.reason(EndReason::Withdrawal).is_empty());
        }
        assert_eq!(
            Words::of(Tongue::En).reason(EndReason::Agreement),
            "draw agreed"
        );
        assert_eq!(Words::of(Tongue::Ru).reason(EndReason::Checkmate), "мат");
        assert_eq!(
            Words::of(Tongue::Uk).title,
            "ccrelay: партії за листуванням"
        );
        assert_eq!(Words::of(Tongue::Ru).color(Color::Black), "Чёрные");
    }
}
