//! `ccrelay journal ratings` and `journal verify --ratings`: the rating list written from the
//! journal alone, signed as the exports are, and a published list made again and compared
//! byte for byte (docs/ratings.md).

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, bail};
use ccrelay::config::Config;
use ccrelay::journal::ratings::{ListFormat, effective_of, list_from_journal, write_list};
use ccrelay::journal::{keyring, sealed, store};

use super::{names, print_signed};
use crate::load_config;

/// The list in effect on `as_of` (today, UTC, when none), written in `format`.
pub fn ratings(
    config: &Path,
    as_of: Option<jiff::civil::Date>,
    format: &str,
    unsigned: bool,
) -> anyhow::Result<ExitCode> {
    let format: ListFormat = format.parse().map_err(anyhow::Error::msg)?;
    let config = load_config(config)?;
    let conn = store::open_read_only(&config.data_dir)?;
    // One snapshot: the list and the head it is signed with agree.
    conn.execute_batch("BEGIN")?;
    let as_of = as_of.unwrap_or_else(today);
    let text = written(&config, &conn, as_of, format)?;
    print_signed(&config, &conn, &text, unsigned)
}

fn today() -> jiff::civil::Date {
    jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::UTC)
        .date()
}

fn written(
    config: &Config,
    conn: &rusqlite::Connection,
    as_of: jiff::civil::Date,
    format: ListFormat,
) -> anyhow::Result<String> {
    let (list, replayed) = list_from_journal(conn, &config.events, &config.ratings, as_of)?;
    let names = names(config).with_registry(&replayed.registry);
    Ok(write_list(&list, &config.ratings, &names, format))
}

/// Checks a published list: its signature (if signed) by one of the journal's keys, and its
/// text, made again from the journal for the day its first line names.
pub fn verify_list(config: &Config, file: &Path) -> anyhow::Result<ExitCode> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let Some(effective) = effective_of(&text) else {
        bail!(
            "{}: its first line names no list (`# ccrelay rating list effective ...`)",
            file.display()
        );
    };
    let conn = store::open_read_only(&config.data_dir)?;
    conn.execute_batch("BEGIN")?;
    let body = sealed::body_of(&text);
    if body.len() < text.len() {
        let keys = keyring::history(&conn)?;
        let signed = keys
            .all()
            .iter()
            .any(|(_, key)| sealed::verify(&text, key).is_ok());
        if !signed {
            eprintln!(
                "ccrelay: {}: not signed by any key of this journal",
                file.display()
            );
            return Ok(ExitCode::from(1));
        }
    }
    let format = if body.lines().nth(1).is_some_and(|l| l.starts_with("id,")) {
        ListFormat::Csv
    } else {
        ListFormat::Text
    };
    let again = written(config, &conn, effective, format)?;
    if again != body {
        eprintln!(
            "ccrelay: {}: the list effective {effective} made from this journal differs",
            file.display()
        );
        return Ok(ExitCode::from(1));
    }
    println!("rating list ok: effective {effective}, the same as the journal gives");
    Ok(ExitCode::SUCCESS)
}
