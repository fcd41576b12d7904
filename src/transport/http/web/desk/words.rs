//! The desk's words, a typed view of the catalog's `desk-*` keys (`src/catalog/*.ftl`), filled
//! once per language, as the other pages' [`super::super::words::Words`] are: a desk page
//! writes no visible word of its own. The relay's answers are shown as the line protocol
//! writes them (the arbiter reads the same line over `ccrelay admin`).

use std::sync::LazyLock;

use crate::catalog::{Key, Tongue};

macro_rules! desk_words {
    ($($field:ident $key:ident,)*) => {
        /// The desk's texts in one language.
        pub struct DeskWords {
            $(pub $field: String,)*
        }

        impl DeskWords {
            fn load(tongue: Tongue) -> DeskWords {
                DeskWords {
                    $($field: tongue.word(Key::$key),)*
                }
            }
        }
    };
}

desk_words! {
    desk Desk,
    players DeskPlayers,
    events DeskEvents,
    decisions DeskDecisions,
    answer DeskAnswer,
    search DeskSearch,
    id DeskId,
    name DeskName,
    reach DeskReach,
    notation DeskNotation,
    lang DeskLang,
    email DeskEmail,
    in_progress DeskInProgress,
    last_heard DeskLastHeard,
    no_players DeskNoPlayers,
    add_player DeskAddPlayer,
    add_help DeskAddHelp,
    add DeskAdd,
    change DeskChange,
    unchanged DeskUnchanged,
    new_secret DeskNewSecret,
    new_secret_help DeskNewSecretHelp,
    secret_once DeskSecretOnce,
    sheet DeskSheet,
    sheet_how DeskSheetHow,
    print DeskPrint,
    back DeskBack,
    new_event DeskNewEvent,
    event_id_help DeskEventIdHelp,
    system DeskSystem,
    system_help DeskSystemHelp,
    round_robin DeskRoundRobin,
    double_round_robin DeskDoubleRoundRobin,
    match_system DeskMatch,
    knockout DeskKnockout,
    event_name_help DeskEventNameHelp,
    site DeskSite,
    site_help DeskSiteHelp,
    tc_help DeskTcHelp,
    game_kind DeskGameKind,
    game_help DeskGameHelp,
    view DeskView,
    view_help DeskViewHelp,
    delay DeskDelay,
    delay_help DeskDelayHelp,
    on_timeout DeskOnTimeout,
    on_timeout_help DeskOnTimeoutHelp,
    silence DeskSilence,
    silence_help DeskSilenceHelp,
    reminders DeskReminders,
    reminders_help DeskRemindersHelp,
    leave_days DeskLeaveDays,
    leave_help DeskLeaveHelp,
    make DeskMake,
    event_text DeskEventText,
    event_list DeskEventList,
    enter DeskEnter,
    enter_help DeskEnterHelp,
    draw_lots DeskDrawLots,
    start DeskStart,
    start_help DeskStartHelp,
    withdraw DeskWithdraw,
    reason DeskReason,
    withdraw_effect DeskWithdrawEffect,
    now DeskNow,
    after DeskAfter,
    confirm DeskConfirm,
    time_left DeskTimeLeft,
    silence_days DeskSilenceDays,
    leave DeskLeave,
    no_decisions DeskNoDecisions,
    why_time DeskWhyTime,
    why_silence DeskWhySilence,
    why_stopped DeskWhyStopped,
    needs DeskNeeds,
    adjudicate DeskAdjudicate,
    adjudicate_help DeskAdjudicateHelp,
    download_crosstable DeskDownloadCrosstable,
    forged DeskForged,
    refused DeskRefused,
    record DeskRecord,
    verdict DeskVerdict,
    verify_failed DeskVerifyFailed,
    head DeskHead,
    signed_head DeskSignedHead,
    no_signed_head DeskNoSignedHead,
    exports DeskExports,
    export_game DeskExportGame,
    export_event DeskExportEvent,
    download DeskDownload,
    format_iccf DeskFormatIccf,
    event_record DeskEventRecord,
    export_ratings DeskExportRatings,
    format_text DeskFormatText,
    day_log DeskDayLog,
    day DeskDay,
    nothing_that_day DeskNothingThatDay,
    entry DeskEntry,
    time DeskTime,
    channel DeskChannel,
    kind DeskKind,
    command DeskCommand,
    correct DeskCorrect,
    correct_help DeskCorrectHelp,
    correct_button DeskCorrectButton,
    game DeskGame,
    special_leave DeskSpecialLeave,
    special_leave_help DeskSpecialLeaveHelp,
    player DeskPlayer,
    first_day DeskFirstDay,
    days DeskDays,
    grant DeskGrant,
}

static WORDS: LazyLock<[DeskWords; 3]> = LazyLock::new(|| Tongue::ALL.map(DeskWords::load));

/// The desk's words in `tongue`.
pub fn words(tongue: Tongue) -> &'static DeskWords {
    let i = Tongue::ALL.iter().position(|t| *t == tongue).unwrap_or(0);
    &WORDS[i]
}
