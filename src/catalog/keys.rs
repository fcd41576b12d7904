//! The catalog's keys: every message the code asks for, with the arguments it passes. The
//! tests check this list against every language's file, both ways.

macro_rules! keys {
    ($($(#[doc = $doc:literal])* $variant:ident $id:literal [$($arg:literal)*];)*) => {
        /// A message of the catalogs.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Key {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Key {
            /// Every key, in the files' order.
            pub const ALL: &'static [Key] = &[$(Key::$variant,)*];

            /// The message's id in the `.ftl` files.
            pub fn id(self) -> &'static str {
                match self { $(Key::$variant => $id,)* }
            }

            /// The arguments the code passes (a language may leave some unsaid).
            pub fn args(self) -> &'static [&'static str] {
                match self { $(Key::$variant => &[$($arg),*],)* }
            }
        }
    };
}

keys! {
    /// A game started (`side`: `white` or `black`).
    SummaryGameStarted "summary-game-started" ["side" "opponent"];
    /// The opponent's move (`offer`, `cancels`: `yes` or `no`; `clocks`: the clock line with
    /// its separator, or nothing).
    SummaryMove "summary-move" ["move" "mover" "offer" "clocks" "cancels"];
    /// A move played from the reader's conditional line; `left` pairs remain in it.
    SummaryLinePlayed "summary-line-played" ["move" "left"];
    /// A draw offered, accepted or declined (`act`).
    SummaryDraw "summary-draw" ["act" "by" "side"];
    SummaryResigned "summary-resigned" ["by" "side"];
    /// A draw claimed (`claim`: `fifty` or `threefold`) ...
    SummaryClaim "summary-claim" ["by" "side" "claim"];
    /// ... and with the move that makes it.
    SummaryClaimWith "summary-claim-with" ["by" "side" "claim" "move"];
    SummaryLeave "summary-leave" ["by" "side" "first" "last" "days"];
    /// Past a limit (`overdue`: `time-control` or `silence`; `forfeit`: `yes` or `no`).
    SummaryTimeUp "summary-time-up" ["player" "side" "overdue" "forfeit" "clocks"];
    SummaryReminder "summary-reminder" ["days" "clocks"];
    /// The result (`pgn`: `1-0`; `text`: `1-0 (resignation)`).
    SummaryResult "summary-result" ["pgn" "text"];
    SummaryRefused "summary-refused" ["number" "reason"];
    SummaryMessage "summary-message" ["from" "text"];
    SummaryRecorded "summary-recorded" ["what"];
    SummaryWelcome "summary-welcome" ["name" "notation"];
    /// An event started with `count` games for the reader (`games`: them, listed).
    SummaryEventStarted "summary-event-started" ["name" "count" "games"];
    SummaryWithdrawn "summary-withdrawn" ["player" "reason"];
    /// One of `games` in an event's start (English's list in its summary).
    SummaryEventGame "summary-event-game" ["game" "side" "opponent"];
    /// How to play by mail, below a welcome.
    MailWelcome "mail-welcome" ["secret" "relay"];
    /// One of the reader's games, below an event's start.
    MailEventGame "mail-event-game" ["round" "board" "game" "side" "opponent"];
    /// How to answer, below every mail (wrapped by the mail's code).
    MailFooter "mail-footer" [];
    /// Above the quoted lines of a player's mail, in the answer to it.
    MailYouSaid "mail-you-said" [];
    MailTruncated "mail-truncated" [];
    /// The subject of the mail when a move waits for the reader (`NOTIFY EACH`).
    NotifySubject "notify-subject" ["game" "white" "black"];
    /// What the opponent played (`move`: numbered, in the reader's notation).
    NotifyMoved "notify-moved" ["opponent" "move" "game"];
    /// A game the reader starts as White.
    NotifyStarted "notify-started" ["opponent" "game"];
    /// The link to the game's page.
    NotifyOpen "notify-open" ["link"];
    /// The picture's text alternative.
    NotifyBoard "notify-board" ["game"];
    /// Why the mail came, and where to change it.
    NotifyWhy "notify-why" ["settings"];
    /// The unsubscribe link's words.
    NotifyStop "notify-stop" [];
    /// The daily digest's subject: `count` games wait.
    NotifyDigestSubject "notify-digest-subject" ["count"];
    /// One game of the digest, with the opponent's last move ...
    NotifyDigestGame "notify-digest-game" ["game" "white" "black" "move"];
    /// ... or one that has started with the reader to move first.
    NotifyDigestStart "notify-digest-start" ["game" "white" "black"];
    /// The settings page (`/play/notify`) and its link in the players' pages' header.
    NotifyPageTitle "notify-page-title" [];
    NotifyPageLink "notify-page-link" [];
    NotifyPageIntro "notify-page-intro" [];
    NotifyPageAddress "notify-page-address" [];
    NotifyPageOff "notify-page-off" [];
    NotifyPageEach "notify-page-each" [];
    NotifyPageDigest "notify-page-digest" [];
    NotifyPageHour "notify-page-hour" [];
    NotifyPageZone "notify-page-zone" [];
    NotifyPageSave "notify-page-save" [];
    NotifyPageSaved "notify-page-saved" [];
    NotifyPageUnavailable "notify-page-unavailable" [];
    NotifyPageByMail "notify-page-by-mail" [];
    /// The one-click unsubscribe's page (`/notify/unsubscribe`).
    UnsubscribeTitle "unsubscribe-title" [];
    UnsubscribeAsk "unsubscribe-ask" ["player"];
    UnsubscribeButton "unsubscribe-button" [];
    UnsubscribeDone "unsubscribe-done" [];
    UnsubscribeRefused "unsubscribe-refused" [];
    /// A duration on a clock: days and hours (`hours` two digits; `sign` `-` past a limit).
    ClockTime "clock-time" ["sign" "days" "hours"];
    /// Whole days (a charge, a bank).
    ClockDays "clock-days" ["days"];
    /// One side's clock (`side`; `kind`: `moves`, `per-move`, `waiting`, `fischer`,
    /// `block`; `state`: `running`, `leave`, `none`; `used`, `left`, `bank`: durations as
    /// written; `charged`: [`Key::ClockCharged`]'s words or nothing; `until`: the move by
    /// which `left` is spent).
    ClockSide "clock-side" ["side" "kind" "used" "charged" "left" "until" "bank" "state"];
    /// What the control charged, when it is not the time used.
    ClockCharged "clock-charged" ["charged"];
    /// Both sides' clocks ([`Key::ClockSide`] each).
    ClockLine "clock-line" ["white" "black"];
    /// The side to move is in day `day` (an ordinal) of its move and its days count double.
    ClockDoubling "clock-doubling" ["side" "day"];
    WebTitle "web-title" [];
    WebGames "web-games" [];
    WebEvents "web-events" [];
    WebEvent "web-event" [];
    WebGame "web-game" [];
    WebWhite "web-white" [];
    WebBlack "web-black" [];
    WebMoves "web-moves" [];
    WebToMove "web-to-move" [];
    WebResult "web-result" [];
    WebLastMove "web-last-move" [];
    WebInProgress "web-in-progress" [];
    WebAwaitingArbiter "web-awaiting-arbiter" [];
    WebNoGames "web-no-games" [];
    WebPage "web-page" [];
    WebOf "web-of" [];
    WebPrevious "web-previous" [];
    WebNext "web-next" [];
    WebTimeControl "web-time-control" [];
    WebClock "web-clock" [];
    WebNoLimit "web-no-limit" [];
    WebOnLeave "web-on-leave" [];
    WebDrawOffer "web-draw-offer" [];
    WebChainHead "web-chain-head" [];
    WebDownloadPgn "web-download-pgn" [];
    WebNotation "web-notation" [];
    WebLanguage "web-language" [];
    WebShow "web-show" [];
    WebPositionAfter "web-position-after" [];
    WebStartPosition "web-start-position" [];
    WebLatest "web-latest" [];
    WebDelayed "web-delayed" [];
    WebFinishedOnly "web-finished-only" [];
    WebCrosstable "web-crosstable" [];
    WebPlace "web-place" [];
    WebPlayer "web-player" [];
    WebPoints "web-points" [];
    WebPlayed "web-played" [];
    WebSb "web-sb" [];
    WebWins "web-wins" [];
    WebPairings "web-pairings" [];
    WebRound "web-round" [];
    WebSite "web-site" [];
    WebStarted "web-started" [];
    WebNotFound "web-not-found" [];
    WebNotFoundText "web-not-found-text" [];
    WebBadRequest "web-bad-request" [];
    WebHome "web-home" [];
    WebArbiter "web-arbiter" [];
    WebLogin "web-login" [];
    WebLogout "web-logout" [];
    WebSecret "web-secret" [];
    WebLoginFailed "web-login-failed" [];
    WebLoggedIn "web-logged-in" [];
    WebLive "web-live" [];
    WebBoardOf "web-board-of" [];
    WebOverBy "web-over-by" [];
    WebUnavailable "web-unavailable" [];
    PlayTitle "play-title" [];
    PlayLoginTitle "play-login-title" [];
    PlayId "play-id" [];
    PlaySecret "play-secret" [];
    PlayLoggedInAs "play-logged-in-as" [];
    PlayYourMove "play-your-move" [];
    PlayTheirMove "play-their-move" [];
    PlayOpponent "play-opponent" [];
    PlayYouPlay "play-you-play" [];
    PlayNoGames "play-no-games" [];
    PlayMove "play-move" [];
    PlayMoveHelp "play-move-help" [];
    PlayCheck "play-check" [];
    PlaySend "play-send" [];
    PlayReadAs "play-read-as" [];
    PlayWithDrawOffer "play-with-draw-offer" [];
    PlayOfferDraw "play-offer-draw" [];
    PlayAcceptDraw "play-accept-draw" [];
    PlayDeclineDraw "play-decline-draw" [];
    PlayDrawOfferedToYou "play-draw-offered-to-you" [];
    PlayDrawOfferedByYou "play-draw-offered-by-you" [];
    PlayResign "play-resign" [];
    PlayResignSure "play-resign-sure" [];
    PlayClaim "play-claim" [];
    PlayClaimThreefold "play-claim-threefold" [];
    PlayClaimFifty "play-claim-fifty" [];
    PlayClaimWith "play-claim-with" [];
    PlayMessages "play-messages" [];
    PlayNoMessages "play-no-messages" [];
    PlaySendMessage "play-send-message" [];
    PlayConditional "play-conditional" [];
    PlayConditionalHelp "play-conditional-help" [];
    PlaySetLine "play-set-line" [];
    PlayCancelLine "play-cancel-line" [];
    PlayLeave "play-leave" [];
    PlayLeaveFirst "play-leave-first" [];
    PlayLeaveDays "play-leave-days" [];
    PlayTakeLeave "play-take-leave" [];
    PlayReceipt "play-receipt" [];
    PlayDownloadReceipt "play-download-receipt" [];
    PlayDone "play-done" [];
    PlayRefused "play-refused" [];
    PlayForged "play-forged" [];
    PlayYou "play-you" [];
    PlayActions "play-actions" [];
    PlayLoginNeeded "play-login-needed" [];
    EndCheckmate "end-checkmate" [];
    EndStalemate "end-stalemate" [];
    EndInsufficientMaterial "end-insufficient-material" [];
    EndResignation "end-resignation" [];
    EndAgreement "end-agreement" [];
    EndRepetition "end-repetition" [];
    EndFiftyMoves "end-fifty-moves" [];
    EndTimeForfeit "end-time-forfeit" [];
    EndSilence "end-silence" [];
    EndAdjudication "end-adjudication" [];
    EndNoMoves "end-no-moves" [];
    EndDrawRule "end-draw-rule" [];
    EndWithdrawal "end-withdrawal" [];
}
