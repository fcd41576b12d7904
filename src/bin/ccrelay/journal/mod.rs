//! `ccrelay journal ...`: verify the record (and players' receipts against it), export it
//! signed, check a signed export with the public key alone, show and rotate the signing key.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use ccrelay::config::Config;
use ccrelay::journal::crosstable::crosstable;
use ccrelay::journal::event_export::{event_text, export_event};
use ccrelay::journal::export::{ExportFormat, Names, export_reporting};
use ccrelay::journal::signing::{self, Key, PublicKey};
use ccrelay::journal::{keyring, receipt, sealed, snapshot, store};
use ccrelay::relay::undelivered::DeadLetters;
use clap::Subcommand;

use crate::load_config;
use crate::progress::progress_bar;

mod ratings;

#[derive(Subcommand)]
pub enum JournalCommand {
    /// Check the hash chain, replay every game, and check every signed head; with
    /// `--receipt`, hold a player's saved receipts against the journal too.
    Verify {
        #[arg(long, default_value = "config/ccrelay.toml")]
        config: PathBuf,
        /// A file of saved receipts: replies and pushes as they came (`r17:3fa9c2d1e0b4`),
        /// full receipts (`ccrelay-receipt v1 ...`, from `RECEIPT 17`), or a signed export.
        #[arg(long, value_name = "FILE")]
        receipt: Option<PathBuf>,
        /// A published rating list (`ccrelay journal ratings`): made again from the journal
        /// and compared byte for byte, its signature checked against the journal's keys.
        #[arg(long, value_name = "FILE")]
        ratings: Option<PathBuf>,
    },
    /// Write a game's official record, or every game of an event as PGN, signed (its last
    /// line names the chain head it was made from and signs it with the text).
    Export {
        #[arg(long, default_value = "config/ccrelay.toml")]
        config: PathBuf,
        /// The game.
        #[arg(long, required_unless_present = "event", conflicts_with = "event")]
        game: Option<String>,
        /// An event: every game as PGN, by round and board, or (`--format text`) its record:
        /// who registered, entered, started and withdrew whom, when.
        #[arg(long)]
        event: Option<String>,
        /// pgn, iccf (the numeric scoresheet), report (readable) or text (every entry).
        #[arg(long, default_value = "pgn")]
        format: ExportFormat,
        /// Write it unsigned when the signing key cannot be read (otherwise an error).
        #[arg(long)]
        unsigned: bool,
    },
    /// Check a signed export with the relay's public key alone (no journal needed).
    VerifyExport {
        /// The export.
        file: PathBuf,
        /// The relay's public key (64 hex digits, as `ccrelay journal key` prints it), or a
        /// file holding it.
        #[arg(long)]
        key: String,
    },
    /// Print the journal's signing key (public half), and the keys before it.
    Key {
        #[arg(long, default_value = "config/ccrelay.toml")]
        config: PathBuf,
    },
    /// Replace the signing key: a new key, named in the chain by an entry signed by the old
    /// one. The daemon must be stopped.
    RotateKey {
        #[arg(long, default_value = "config/ccrelay.toml")]
        config: PathBuf,
    },
    /// Print the full signed receipt for an entry.
    Receipt {
        #[arg(long, default_value = "config/ccrelay.toml")]
        config: PathBuf,
        /// The entry number (as a short receipt `r17:...` names it).
        entry: i64,
    },
    /// An event's crosstable: every player against every other, points and places.
    Crosstable {
        #[arg(long, default_value = "config/ccrelay.toml")]
        config: PathBuf,
        #[arg(long)]
        event: String,
    },
    /// The rating list in effect on a day, from the journal alone (docs/ratings.md), signed
    /// as the exports are.
    Ratings {
        #[arg(long, default_value = "config/ccrelay.toml")]
        config: PathBuf,
        /// The day (YYYY-MM-DD): the list of the rating period that holds it (today's
        /// when not given).
        #[arg(long, value_name = "DATE")]
        as_of: Option<jiff::civil::Date>,
        /// csv or text.
        #[arg(long, default_value = "text")]
        format: String,
        /// Write it unsigned when the signing key cannot be read (otherwise an error).
        #[arg(long)]
        unsigned: bool,
    },
}

pub fn journal_command(command: JournalCommand) -> anyhow::Result<ExitCode> {
    match command {
        JournalCommand::Verify {
            config,
            receipt,
            ratings: Some(list),
        } => {
            let verified = verify(&config, receipt.as_deref())?;
            if verified != ExitCode::SUCCESS {
                return Ok(verified);
            }
            ratings::verify_list(&load_config(&config)?, &list)
        }
        JournalCommand::Verify {
            config,
            receipt,
            ratings: None,
        } => verify(&config, receipt.as_deref()),
        JournalCommand::Ratings {
            config,
            as_of,
            format,
            unsigned,
        } => ratings::ratings(&config, as_of, &format, unsigned),
        JournalCommand::Export {
            config,
            game,
            event,
            format,
            unsigned,
        } => {
            let what = match (game, event) {
                (Some(game), _) => Exported::Game(game),
                (None, Some(event)) if matches!(format, ExportFormat::Pgn | ExportFormat::Text) => {
                    Exported::Event(event)
                }
                (None, Some(_)) => bail!("an event is exported as pgn or text"),
                (None, None) => bail!("say --game ID or --event ID"),
            };
            export(&config, &what, format, unsigned)
        }
        JournalCommand::VerifyExport { file, key } => verify_export(&file, &key),
        JournalCommand::Key { config } => {
            let config = load_config(&config)?;
            let conn = store::open_read_only(&config.data_dir)?;
            let keys = keyring::history(&conn)?;
            let Some((_, current)) = keys.current() else {
                bail!(
                    "the journal names no signing key yet (the daemon has not run on it since signing began)"
                );
            };
            println!("{current}");
            for (since, key) in keys.all().iter().rev() {
                eprintln!("entry {since}: key {key}");
            }
            Ok(ExitCode::SUCCESS)
        }
        JournalCommand::RotateKey { config } => rotate(&config),
        JournalCommand::Receipt { config, entry } => {
            let config = load_config(&config)?;
            let conn = store::open_read_only(&config.data_dir)?;
            match receipt::receipt_for(&conn, entry)? {
                Some(r) => {
                    println!("{r}");
                    Ok(ExitCode::SUCCESS)
                }
                None => bail!("no signed receipt for entry {entry}: no such entry, or none signed"),
            }
        }
        JournalCommand::Crosstable { config, event } => {
            let config = load_config(&config)?;
            let conn = store::open_read_only(&config.data_dir)?;
            print!("{}", crosstable(&conn, &event, &names(&config))?);
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn verify(config: &Path, receipts: Option<&Path>) -> anyhow::Result<ExitCode> {
    let config = load_config(config)?;
    let saved = match receipts {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let mut saved =
                receipt::find_all(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            // A signed export's head counts as a receipt for its entry.
            if let Some((seq, hash)) = sealed::head_of(&text) {
                saved.push(receipt::Saved::Short(receipt::Short::of(seq, &hash)));
            }
            if saved.is_empty() {
                bail!("{}: no receipts in it", path.display());
            }
            Some(saved)
        }
        None => None,
    };
    let conn = store::open_read_only(&config.data_dir)?;
    // One snapshot: a daemon committing meanwhile changes nothing this check reads.
    conn.execute_batch("BEGIN")?;
    let bar = progress_bar(journal_size(&conn), "entries");
    let verified =
        snapshot::verify_reporting(&conn, &config.data_dir, &mut |n| bar.set_position(n));
    bar.finish_and_clear();
    let (replayed, found) = match verified {
        Ok(verified) => verified,
        Err(e) => {
            eprintln!("ccrelay: journal verify failed: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    println!(
        "journal ok: {} entries, {} games, hash chain intact, clocks agree with every result ({} games timed), {} signed heads",
        replayed.entries,
        replayed.games.len(),
        replayed.clocks.as_ref().map_or(0, |c| c.games_timed()),
        replayed.signatures
    );
    match found {
        snapshot::Found::None => {}
        snapshot::Found::Agrees(seq) => {
            println!("snapshot ok: taken after entry {seq}, holds what the record holds there")
        }
        snapshot::Found::Unused(why) => {
            println!("snapshot not used at start ({why}): a start replays every entry")
        }
    }
    if let Some(saved) = saved {
        match receipt::check(&conn, &saved) {
            Ok(checked) => println!(
                "receipts ok: {} receipts ({} signed) hold against the journal (last entry {})",
                checked.receipts, checked.signed, checked.last
            ),
            Err(e) => {
                eprintln!("ccrelay: receipts do not hold: {e}");
                return Ok(ExitCode::from(1));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What `journal export` writes: one game, or every game of an event.
enum Exported {
    Game(String),
    Event(String),
}

fn export(
    config: &Path,
    what: &Exported,
    format: ExportFormat,
    unsigned: bool,
) -> anyhow::Result<ExitCode> {
    let config = load_config(config)?;
    let conn = store::open_read_only(&config.data_dir)?;
    conn.execute_batch("BEGIN")?;
    let bar = progress_bar(journal_size(&conn), "entries verified");
    let names = names(&config);
    let mut progress = |n| bar.set_position(n);
    let text = match what {
        Exported::Game(game) => export_reporting(&conn, game, format, &names, &mut progress),
        Exported::Event(event) if format == ExportFormat::Text => {
            event_text(&conn, event, &names, &mut progress)
        }
        Exported::Event(event) => export_event(&conn, event, &names, &mut progress),
    };
    bar.finish_and_clear();
    let mut text = text?;
    if let (ExportFormat::Report, Exported::Game(game)) = (format, what) {
        dead_letters_section(&config.data_dir, game, &mut text);
    }
    print_signed(&config, &conn, &text, unsigned)
}

/// Prints `text` with a signature line for the journal's head, made with the journal's key
/// (unsigned when the journal names none, or when asked and the key cannot be read).
pub(crate) fn print_signed(
    config: &Config,
    conn: &rusqlite::Connection,
    text: &str,
    unsigned: bool,
) -> anyhow::Result<ExitCode> {
    let (seq, hash) = store::tail(conn)?;
    let keys = keyring::history(conn)?;
    let Some((_, current)) = keys.current() else {
        eprintln!("ccrelay: unsigned: the journal names no signing key (older than signing)");
        print!("{text}");
        return Ok(ExitCode::SUCCESS);
    };
    let path = signing::key_path(&config.data_dir, config.journal.signing_key.as_deref());
    let key = match Key::read(&path) {
        Ok(key) if key.public() == current => key,
        Ok(key) => bail!(
            "{} holds key {}, not the journal's key {current}",
            path.display(),
            key.public()
        ),
        Err(e) if unsigned => {
            eprintln!("ccrelay: unsigned, as asked: {e}");
            print!("{text}");
            return Ok(ExitCode::SUCCESS);
        }
        Err(e) => bail!("{e} (run as the daemon's user, or pass --unsigned)"),
    };
    print!("{}", sealed::seal(text, seq, &hash, &key));
    Ok(ExitCode::SUCCESS)
}

/// A game's report ends with the mail about it that the SMTP server refused for good: the
/// arbiter's view of what a player may never have received. The letters are kept beside the
/// journal, not in its chain (docs/journal.md), and the section says so.
fn dead_letters_section(data_dir: &Path, game: &str, text: &mut String) {
    match DeadLetters::new(data_dir).about_game(game) {
        Ok(letters) if letters.is_empty() => {}
        Ok(letters) => {
            text.push_str(
                "\nMail refused for good (dead letters, kept beside the journal, not in its chain):\n",
            );
            for letter in letters {
                text.push_str("  ");
                text.push_str(&letter.line());
                text.push('\n');
            }
        }
        Err(e) => eprintln!("ccrelay: the report leaves out the dead letters: {e}"),
    }
}

fn verify_export(file: &Path, key: &str) -> anyhow::Result<ExitCode> {
    let key_text = if Path::new(key).is_file() {
        std::fs::read_to_string(key).with_context(|| format!("cannot read {key}"))?
    } else {
        key.to_owned()
    };
    let key = PublicKey::parse(&key_text)?;
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    match sealed::verify(&text, &key) {
        Ok(seal) => {
            println!(
                "export ok: signed by key {}, made from the journal at entry {} (head {})",
                seal.key,
                seal.seq,
                hex::encode(seal.hash)
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("ccrelay: {}: {e}", file.display());
            Ok(ExitCode::from(1))
        }
    }
}

fn rotate(config: &Path) -> anyhow::Result<ExitCode> {
    let config = load_config(config)?;
    let _lock = keyring::lock(&config.data_dir)?;
    let conn = store::open(&config.data_dir)?;
    let replayed = ccrelay::journal::verify(&conn).context("the journal must verify first")?;
    let path = signing::key_path(&config.data_dir, config.journal.signing_key.as_deref());
    let old = keyring::for_journal(&path, &replayed.keys)?;
    if replayed.keys.current().is_none() {
        bail!("the journal names no key yet: start the daemon once, which names its first key");
    }
    let (new, seq) = keyring::rotate(&conn, &path, &old)?;
    println!("{}", new.public());
    eprintln!(
        "entry {seq}: key {} replaces key {} (signed by it); {} holds the new key",
        new.public(),
        old.public(),
        path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The names the records use, from the configuration, with the players' addresses.
pub(crate) fn names(config: &Config) -> Names {
    ccrelay::relay::names(config, true)
}

/// The entries in a journal, for a progress line (none if it cannot say).
fn journal_size(conn: &rusqlite::Connection) -> Option<u64> {
    store::tail(conn)
        .ok()
        .and_then(|(seq, _)| u64::try_from(seq).ok())
}
