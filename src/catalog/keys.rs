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
    /// The reader's move, proposed to the node or server that keeps the record, is in it.
    SummaryRecordedMove "summary-recorded-move" ["move"];
    /// A Triple Block refill by the reader's opponent.
    SummaryRefill "summary-refill" ["by" "side" "days"];
    /// A long reflection declared ahead by the reader's opponent (or, for the arbiter, a player).
    SummaryLongReflection "summary-long-reflection" ["by" "side" "number"];
    SummaryWelcome "summary-welcome" ["name" "notation"];
    /// An event started with `count` games for the reader (`games`: them, listed).
    SummaryEventStarted "summary-event-started" ["name" "count" "games"];
    SummaryWithdrawn "summary-withdrawn" ["player" "reason"];
    /// A `[[remotes]]` account's standing changed (`health`: `failing`, `working`, `paused`).
    SummaryRemote "summary-remote" ["remote" "player" "health"];
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
    /// A radio player's games page: their callsign and the number of the next code of their
    /// card (docs/radio.md) ...
    PlayRadioNextCode "play-radio-next-code" ["callsign" "number"];
    /// ... or that their card is used up.
    PlayRadioCardUsed "play-radio-card-used" ["callsign"];
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
    /// The Triple Block refill form: its heading, its field, its button.
    PlayBank "play-bank" [];
    PlayBankDays "play-bank-days" [];
    PlayRefill "play-refill" [];
    /// The long reflection's button (`SILENCE g1 LONG`), and what it does.
    PlaySilence "play-silence" [];
    PlaySilenceHelp "play-silence-help" [];
    /// A Triple Block side's bank beside its clock in the list of games (`bank`: days).
    PlayBankLeft "play-bank-left" ["bank"];
    /// The player's move played (`move`: numbered, with its code; `offer`: `yes` or `no`).
    ReplyMoved "reply-moved" ["move" "offer"];
    ReplyDrawOffered "reply-draw-offered" [];
    ReplyDrawAccepted "reply-draw-accepted" [];
    ReplyDrawDeclined "reply-draw-declined" [];
    ReplyResigned "reply-resigned" [];
    /// A draw claimed and granted (`claim`: `threefold` or `fifty`).
    ReplyClaimed "reply-claimed" ["claim"];
    /// A conditional line set (`line`: its pairs, [`Key::ReplyLinePair`] each, joined).
    ReplyLineSet "reply-line-set" ["line"];
    ReplyLinePair "reply-line-pair" ["expected" "answer"];
    ReplyLineCancelled "reply-line-cancelled" [];
    ReplyMessageSent "reply-message-sent" [];
    /// A message mended for its reader (after [`Key::ReplyMessageSent`]).
    ReplyMended "reply-mended" [];
    ReplyMessageEmpty "reply-message-empty" [];
    /// A message riding with a command not sent (the refusal's words follow).
    ReplyMessageNotSent "reply-message-not-sent" [];
    /// Leave taken (`first`, `last`: dates; `games`: listed).
    ReplyLeaveTaken "reply-leave-taken" ["first" "last" "days" "games"];
    ReplyLeaveProposed "reply-leave-proposed" ["games"];
    ReplyLeaveNotIn "reply-leave-not-in" ["game" "why"];
    ReplyRefilled "reply-refilled" ["days"];
    ReplyReflection "reply-reflection" ["number"];
    ReplyProposed "reply-proposed" [];
    /// A refusal by one of the player's games (`why`: its reason, below).
    ReplyInGame "reply-in-game" ["game" "why"];
    ReplyNoGameForLeave "reply-no-game-for-leave" [];
    ReplyNotRecorded "reply-not-recorded" [];
    ReplyShuttingDown "reply-shutting-down" [];
    ReplyTooMany "reply-too-many" [];
    /// The page's own refusals of a form, before the relay is asked.
    ReplyConfirmResignation "reply-confirm-resignation" [];
    ReplyEmptyMessage "reply-empty-message" [];
    ReplyBadNumber "reply-bad-number" ["number"];
    ReplyNotUnderstood "reply-not-understood" ["text"];
    ReplyNotAnAction "reply-not-an-action" [];
    /// The game's refusals, as reasons (lower case, no full stop: the page makes a sentence
    /// of one, or names its game before it); `why`: a reason below.
    RefusedGameOver "refused-game-over" ["result"];
    RefusedStopped "refused-stopped" ["why"];
    RefusedNotYourTurn "refused-not-your-turn" ["side"];
    RefusedWrongNumber "refused-wrong-number" ["written" "expected"];
    RefusedBlackNumber "refused-black-number" ["written" "expected"];
    RefusedNoDrawOffer "refused-no-draw-offer" [];
    RefusedOwnDrawOffer "refused-own-draw-offer" [];
    RefusedWrongRepeat "refused-wrong-repeat" ["written" "actual"];
    RefusedDrawTooEarly "refused-draw-too-early" ["from" "now"];
    RefusedClaim "refused-claim" ["why"];
    RefusedLeave "refused-leave" ["why"];
    RefusedRefill "refused-refill" ["why"];
    RefusedReflection "refused-reflection" ["why"];
    RefusedLine "refused-line" ["why"];
    /// Why a claim is refused (`when`: `now` or `after` the move claimed with).
    ClaimIllegalMove "claim-illegal-move" [];
    ClaimRepetition "claim-repetition" ["when" "seen"];
    ClaimNoFifty "claim-no-fifty" [];
    ClaimFifty "claim-fifty" ["when" "moves"];
    /// Why leave is refused.
    LeaveTripleBlock "leave-triple-block" [];
    LeaveNoDays "leave-no-days" [];
    LeaveNotAhead "leave-not-ahead" ["earliest"];
    LeaveOverlaps "leave-overlaps" ["first" "last"];
    LeaveOverYear "leave-over-year" ["asked" "year" "taken" "allowed"];
    /// Why a refill is refused.
    RefillNoBank "refill-no-bank" [];
    RefillNotToMove "refill-not-to-move" [];
    RefillNoDays "refill-no-days" [];
    RefillOutOfTime "refill-out-of-time" [];
    RefillBankShort "refill-bank-short" ["bank" "asked"];
    RefillClockFull "refill-clock-full" ["clock" "room" "asked"];
    /// Why a long reflection is refused (`next`: `yes` or `no`).
    ReflectionTripleBlock "reflection-triple-block" [];
    ReflectionNoLimit "reflection-no-limit" [];
    ReflectionAlready "reflection-already" ["next"];
    /// Why a conditional line is refused (`whose`: `theirs` or `yours`).
    LineYourMove "line-your-move" [];
    LineUnpaired "line-unpaired" [];
    LineTooLong "line-too-long" ["max"];
    LineOverBefore "line-over-before" ["text"];
    LineInMove "line-in-move" ["index" "whose" "text" "why"];
    /// Why a move cannot be read (`why`: a `syntax-*` reason).
    MoveNotAMove "move-not-a-move" ["why"];
    SyntaxEmpty "syntax-empty" [];
    SyntaxTooLong "syntax-too-long" [];
    SyntaxNullMove "syntax-null-move" [];
    SyntaxNumeric "syntax-numeric" [];
    SyntaxPieceLetters "syntax-piece-letters" ["letters"];
    SyntaxNoDestination "syntax-no-destination" [];
    SyntaxPromotionPiece "syntax-promotion-piece" [];
    SyntaxUnexpected "syntax-unexpected" ["text"];
    SyntaxBadSquare "syntax-bad-square" ["text"];
    SyntaxOneSquare "syntax-one-square" [];
    SyntaxMixedSeparators "syntax-mixed-separators" [];
    SyntaxMixedForms "syntax-mixed-forms" [];
    /// Why a move read cannot be played.
    MoveNoSuchMove "move-no-such-move" [];
    MoveNothingTo "move-nothing-to" ["square"];
    MoveLegalTo "move-legal-to" ["square" "moves"];
    MoveGameOver "move-game-over" [];
    MoveAmbiguous "move-ambiguous" ["readings"];
    MovePromotionMissing "move-promotion-missing" ["readings"];
    /// One reading of an ambiguous move with the languages that read it so (their codes).
    MoveReading "move-reading" ["move" "langs"];
    /// Between readings.
    MoveOr "move-or" [];
    MoveAnyLanguage "move-any-language" [];
    MoveOutOfLanguages "move-out-of-languages" ["had" "readers" "readings"];
    DraughtsNoPiece "draughts-no-piece" ["side" "square"];
    DraughtsMustCapture "draughts-must-capture" [];
    DraughtsLegalFrom "draughts-legal-from" ["square" "moves"];
    DraughtsStuck "draughts-stuck" ["square"];
    DraughtsLegal "draughts-legal" ["moves"];
    DraughtsNoLegalMove "draughts-no-legal-move" ["side"];
    DraughtsStopsEarly "draughts-stops-early" ["moves"];
    DraughtsAmbiguous "draughts-ambiguous" ["moves"];
    /// A time control, as the pages write it.
    TcMovesInDays "tc-moves-in-days" ["moves" "days"];
    TcDaysPerMove "tc-days-per-move" ["days"];
    TcFischer "tc-fischer" ["base" "increment"];
    TcFischerCap "tc-fischer-cap" ["base" "increment" "cap"];
    TcTripleBlock "tc-triple-block" ["clock" "increment" "moves" "bank"];
    TcRefillByHand "tc-refill-by-hand" [];
    TcProtection "tc-protection" ["days"];
    TcNone "tc-none" [];
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
    /// The arbiter's desk (`transport/http/web/desk/`).
    Desk "desk" [];
    DeskPlayers "desk-players" [];
    DeskEvents "desk-events" [];
    DeskDecisions "desk-decisions" [];
    DeskAnswer "desk-answer" [];
    DeskSearch "desk-search" [];
    DeskId "desk-id" [];
    DeskName "desk-name" [];
    DeskReach "desk-reach" [];
    DeskNotation "desk-notation" [];
    DeskLang "desk-lang" [];
    DeskEmail "desk-email" [];
    DeskInProgress "desk-in-progress" [];
    DeskLastHeard "desk-last-heard" [];
    DeskNoPlayers "desk-no-players" [];
    DeskAddPlayer "desk-add-player" [];
    DeskAddHelp "desk-add-help" [];
    DeskAdd "desk-add" [];
    DeskChange "desk-change" [];
    DeskUnchanged "desk-unchanged" [];
    DeskNewSecret "desk-new-secret" [];
    DeskNewSecretHelp "desk-new-secret-help" [];
    DeskSecretOnce "desk-secret-once" [];
    DeskSheet "desk-sheet" [];
    DeskSheetHow "desk-sheet-how" [];
    DeskPrint "desk-print" [];
    DeskBack "desk-back" [];
    DeskNewEvent "desk-new-event" [];
    DeskEventIdHelp "desk-event-id-help" [];
    DeskSystem "desk-system" [];
    DeskSystemHelp "desk-system-help" [];
    DeskRoundRobin "desk-round-robin" [];
    DeskDoubleRoundRobin "desk-double-round-robin" [];
    DeskMatch "desk-match" [];
    DeskEventNameHelp "desk-event-name-help" [];
    DeskSite "desk-site" [];
    DeskSiteHelp "desk-site-help" [];
    DeskTcHelp "desk-tc-help" [];
    DeskGameKind "desk-game-kind" [];
    DeskGameHelp "desk-game-help" [];
    DeskView "desk-view" [];
    DeskViewHelp "desk-view-help" [];
    DeskDelay "desk-delay" [];
    DeskDelayHelp "desk-delay-help" [];
    DeskOnTimeout "desk-on-timeout" [];
    DeskOnTimeoutHelp "desk-on-timeout-help" [];
    DeskSilence "desk-silence" [];
    DeskSilenceHelp "desk-silence-help" [];
    DeskReminders "desk-reminders" [];
    DeskRemindersHelp "desk-reminders-help" [];
    DeskLeaveDays "desk-leave-days" [];
    DeskLeaveHelp "desk-leave-help" [];
    DeskMake "desk-make" [];
    DeskEventText "desk-event-text" [];
    DeskEventList "desk-event-list" [];
    DeskEnter "desk-enter" [];
    DeskEnterHelp "desk-enter-help" [];
    DeskDrawLots "desk-draw-lots" [];
    DeskStart "desk-start" [];
    DeskStartHelp "desk-start-help" [];
    DeskWithdraw "desk-withdraw" [];
    DeskReason "desk-reason" [];
    DeskWithdrawEffect "desk-withdraw-effect" [];
    DeskNow "desk-now" [];
    DeskAfter "desk-after" [];
    DeskConfirm "desk-confirm" [];
    DeskTimeLeft "desk-time-left" [];
    DeskSilenceDays "desk-silence-days" [];
    DeskLeave "desk-leave" [];
    DeskNoDecisions "desk-no-decisions" [];
    DeskWhyTime "desk-why-time" [];
    DeskWhySilence "desk-why-silence" [];
    DeskWhyStopped "desk-why-stopped" [];
    DeskNeeds "desk-needs" [];
    DeskAdjudicate "desk-adjudicate" [];
    DeskAdjudicateHelp "desk-adjudicate-help" [];
    DeskDownloadCrosstable "desk-download-crosstable" [];
    DeskForged "desk-forged" [];
    DeskRefused "desk-refused" [];
    DeskRecord "desk-record" [];
    DeskVerdict "desk-verdict" [];
    DeskVerifyFailed "desk-verify-failed" [];
    DeskHead "desk-head" [];
    DeskSignedHead "desk-signed-head" [];
    DeskNoSignedHead "desk-no-signed-head" [];
    DeskExports "desk-exports" [];
    DeskExportGame "desk-export-game" [];
    DeskExportEvent "desk-export-event" [];
    DeskDownload "desk-download" [];
    DeskFormatIccf "desk-format-iccf" [];
    DeskEventRecord "desk-event-record" [];
    DeskExportRatings "desk-export-ratings" [];
    DeskFormatText "desk-format-text" [];
    DeskDayLog "desk-day-log" [];
    DeskDay "desk-day" [];
    DeskNothingThatDay "desk-nothing-that-day" [];
    DeskEntry "desk-entry" [];
    DeskTime "desk-time" [];
    DeskChannel "desk-channel" [];
    DeskKind "desk-kind" [];
    DeskCommand "desk-command" [];
    DeskCorrect "desk-correct" [];
    DeskCorrectHelp "desk-correct-help" [];
    DeskCorrectButton "desk-correct-button" [];
    DeskGame "desk-game" [];
    DeskSpecialLeave "desk-special-leave" [];
    DeskSpecialLeaveHelp "desk-special-leave-help" [];
    DeskPlayer "desk-player" [];
    DeskFirstDay "desk-first-day" [];
    DeskDays "desk-days" [];
    DeskGrant "desk-grant" [];
    /// The rating list's page (`/ratings`, docs/ratings.md).
    WebRatings "web-ratings" [];
    WebRatingsEffective "web-ratings-effective" ["date"];
    WebRatingsNone "web-ratings-none" [];
    WebRatingsPlayer "web-ratings-player" [];
    WebRatingsRating "web-ratings-rating" [];
    WebRatingsDeviation "web-ratings-deviation" [];
    WebRatingsGames "web-ratings-games" [];
    WebRatingsChange "web-ratings-change" [];
    WebRatingsHistory "web-ratings-history" [];
    WebRatingsNew "web-ratings-new" [];
    /// What `?` beside a rating means (`rd`: the deviation from which a rating is provisional).
    WebRatingsProvisional "web-ratings-provisional" ["rd"];
    /// A knock-out's bracket on its event page (docs/events.md, "Knock-out").
    WebBracket "web-bracket" [];
    WebBracketFinal "web-bracket-final" [];
    WebBracketSemiFinals "web-bracket-semi-finals" [];
    WebBracketQuarterFinals "web-bracket-quarter-finals" [];
    /// A round counted from the first (`round`: its number).
    WebBracketRound "web-bracket-round" ["round"];
    /// An empty place of the first round: the player against it goes on without games.
    WebBracketBye "web-bracket-bye" [];
    WebBracketWinner "web-bracket-winner" [];
    /// How a match was decided, when not by its first two games.
    WebBracketByLot "web-bracket-by-lot" [];
    WebBracketExtraGames "web-bracket-extra-games" [];
    WebBracketWithdrawal "web-bracket-withdrawal" [];
    /// The desk's name of the knock-out system.
    DeskKnockout "desk-knockout" [];
}
