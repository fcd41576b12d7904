//! The web pages' words, a typed view of the catalog (its `web-*` and `end-*` keys, in
//! `src/catalog/*.ftl`) filled once per language. A page asks for its [`Words`] by the
//! viewer's language and never writes a visible word of its own.

use std::sync::LazyLock;

use shakmaty::Color;

use crate::catalog::Key;
pub use crate::catalog::Tongue;
use crate::game::EndReason;
use crate::relay::Clocks;
use crate::relay::summary;

macro_rules! words {
    ($($field:ident $key:ident,)*) => {
        /// The texts of the pages in one language.
        pub struct Words {
            $(pub $field: String,)*
            /// How a game ended: every `end-*` key and its words.
            ends: Vec<(Key, String)>,
            /// For the words that take a value (a clock's time left).
            tongue: Tongue,
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
                    tongue,
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
    over_by WebOverBy,
    unavailable WebUnavailable,
    play_title PlayTitle,
    play_login_title PlayLoginTitle,
    play_id PlayId,
    play_secret PlaySecret,
    play_logged_in_as PlayLoggedInAs,
    play_your_move PlayYourMove,
    play_their_move PlayTheirMove,
    play_opponent PlayOpponent,
    play_you_play PlayYouPlay,
    play_no_games PlayNoGames,
    play_move PlayMove,
    play_move_help PlayMoveHelp,
    play_check PlayCheck,
    play_send PlaySend,
    play_read_as PlayReadAs,
    play_with_draw_offer PlayWithDrawOffer,
    play_offer_draw PlayOfferDraw,
    play_accept_draw PlayAcceptDraw,
    play_decline_draw PlayDeclineDraw,
    play_draw_offered_to_you PlayDrawOfferedToYou,
    play_draw_offered_by_you PlayDrawOfferedByYou,
    play_resign PlayResign,
    play_resign_sure PlayResignSure,
    play_claim PlayClaim,
    play_claim_threefold PlayClaimThreefold,
    play_claim_fifty PlayClaimFifty,
    play_claim_with PlayClaimWith,
    play_messages PlayMessages,
    play_no_messages PlayNoMessages,
    play_send_message PlaySendMessage,
    play_conditional PlayConditional,
    play_conditional_help PlayConditionalHelp,
    play_set_line PlaySetLine,
    play_cancel_line PlayCancelLine,
    play_leave PlayLeave,
    play_leave_first PlayLeaveFirst,
    play_leave_days PlayLeaveDays,
    play_take_leave PlayTakeLeave,
    play_receipt PlayReceipt,
    play_download_receipt PlayDownloadReceipt,
    play_done PlayDone,
    play_refused PlayRefused,
    play_forged PlayForged,
    play_you PlayYou,
    play_actions PlayActions,
    play_login_needed PlayLoginNeeded,
    play_bank PlayBank,
    play_bank_days PlayBankDays,
    play_refill PlayRefill,
    play_silence PlaySilence,
    play_silence_help PlaySilenceHelp,
}

impl Words {
    /// Time left on a clock (negative past the time control) in the pages' language:
    /// `3d 04h`, `3 дн. 04 ч`, `3 дн. 04 год`.
    pub fn time_left(&self, seconds: i64) -> String {
        summary::clock_time(self.tongue, seconds)
    }

    /// One side's clock in the pages' language, by its control: the time used and what it
    /// was charged, the time left, Triple Block's clock and bank.
    pub fn side_clock(&self, clocks: &Clocks, color: Color) -> String {
        summary::side_clock(self.tongue, clocks, color)
    }

    /// A Triple Block side's bank as the list of games shows it beside its clock.
    pub fn bank(&self, seconds: i64) -> String {
        let days = summary::clock_days(self.tongue, seconds);
        self.tongue
            .say(Key::PlayBankLeft, &[("bank", days.as_str().into())])
    }

    /// What the side to move is told once its days on this move count double.
    pub fn doubling(&self, clocks: &Clocks) -> Option<String> {
        summary::doubling_words(self.tongue, clocks)
    }
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
    use crate::game::clock::DAY;

    /// The clocks on a Russian or Ukrainian page were written `3d 04h`, in English letters.
    #[test]
    fn regression_a_clock_was_written_in_english_on_every_page() {
        let day = DAY;
        let cases = [
            (Tongue::En, 3 * day + 4 * 3600 + 59, "3d 04h"),
            (Tongue::En, -3 * 3600, "-0d 03h"),
            (Tongue::Ru, 46 * day + 20 * 3600, "46 дн. 20 ч"),
            (Tongue::Uk, 3 * day + 4 * 3600, "3 дн. 04 год"),
        ];
        for (tongue, seconds, want) in cases {
            assert_eq!(Words::of(tongue).time_left(seconds), want, "{tongue:?}");
        }
        // The same as everywhere else English writes a clock (exports, pushes).
        assert_eq!(
            Words::of(Tongue::En).time_left(5 * day + 3600),
            crate::game::days_hours::days_hours(5 * day + 3600)
        );
    }

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
