//! Whose node keeps the record of a game played between two nodes over a link: that node
//! orders every action of the game, the other proposes (docs/link.md).

use serde::{Deserialize, Serialize};
use shakmaty::Color;

/// The side whose node keeps a linked game's record.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Authority {
    #[default]
    White,
    Black,
}

impl Authority {
    pub fn color(self) -> Color {
        match self {
            Authority::White => Color::White,
            Authority::Black => Color::Black,
        }
    }
}

impl std::str::FromStr for Authority {
    type Err = String;
    fn from_str(s: &str) -> Result<Authority, String> {
        match s {
            "white" => Ok(Authority::White),
            "black" => Ok(Authority::Black),
            other => Err(format!("{other:?} is not a side (white or black)")),
        }
    }
}
