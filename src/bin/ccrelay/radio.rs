//! `ccrelay radio card <player>`: a radio player's card of one-time codes, printed from the
//! key in the daemon's data directory (drawn there if the daemon has not yet), for the
//! arbiter to hand over or post (docs/radio.md, "A player by APRS message"); with `--next`,
//! the player's next card, which replaces a lost one: from then on the old card's codes are
//! refused.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use ccrelay::transport::radio::card::{self, CardKey};

/// What `ccrelay radio` does.
#[derive(clap::Subcommand)]
pub enum RadioCommand {
    /// Print a player's card of one-time codes (their APRS messages end with one).
    Card {
        /// The player's id.
        player: String,
        /// Make and print the player's next card, for one lost: from then on only its codes
        /// are accepted (the daemon need not be restarted).
        #[arg(long)]
        next: bool,
        /// The configuration file (its data directory holds the card key).
        #[arg(long, default_value = "config/ccrelay.toml")]
        config: PathBuf,
    },
}

pub fn radio_command(command: RadioCommand) -> anyhow::Result<ExitCode> {
    match command {
        RadioCommand::Card {
            player,
            next,
            config,
        } => {
            let config = super::load_config(&config)?;
            let key = CardKey::load_or_create(&config.data_dir).context("the card key")?;
            let number = if next {
                card::next_card(&config.data_dir, &player).context("the player's next card")?
            } else {
                card::card_of(&config.data_dir, &player)
            };
            // A player registered while the daemon runs is in the record, not the file: the
            // card is the same, only its heading lacks their name and callsign.
            let (name, callsign) = config.players.get(&player).map_or_else(
                || (player.clone(), "callsign as registered".to_owned()),
                |p| {
                    let callsign = p
                        .radio
                        .as_ref()
                        .map_or_else(|| "not reached by radio".to_owned(), |r| r.callsign.clone());
                    (p.name.clone(), callsign)
                },
            );
            print!("{}", key.card(&player, number, &name, &callsign));
            Ok(ExitCode::SUCCESS)
        }
    }
}
