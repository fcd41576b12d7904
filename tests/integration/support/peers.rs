//! The independent programs ccrelay's output is compared with: Debian's pgn-extract.

use std::path::Path;
use std::process::Command;

/// pgn-extract, from where Debian installs it; panics naming the package when it is missing.
pub fn pgn_extract() -> Command {
    let path = ["/usr/games/pgn-extract", "/usr/bin/pgn-extract"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("pgn-extract is not installed: `apt-get install pgn-extract` (.ci/run does)");
    Command::new(path)
}
