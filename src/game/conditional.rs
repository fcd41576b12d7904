//! Reading a conditional line ("if 12... Nf6 then 13. Bg5; if ..."): the opponent's expected
//! moves and the answers, each checked on the position it would be played in. Playing and
//! cancelling a line is [`Game`]'s own (a move on the line advances it, any other cancels it).

use jiff::Timestamp;
use shakmaty::Color;

use super::{Action, Game, LineRefusal, Ply, Refusal};
use crate::notation::Lang;
use crate::notation::number::MoveNumber;

/// Conditional lines longer than this are refused (a line is a plan, not a game).
pub const MAX_CONDITIONAL: usize = 40;

impl Game {
    /// Reads `color`'s conditional line: the opponent's next move, `color`'s answer, and so on,
    /// each in any notation (in `lang` first). Changes nothing.
    pub fn read_conditional(
        &self,
        color: Color,
        texts: &[(Option<MoveNumber>, String)],
        lang: Option<Lang>,
    ) -> Result<Vec<Ply>, Refusal> {
        self.check_open()?;
        let refuse = |why: LineRefusal| Err(Refusal::Conditional(why));
        if texts.len() % 2 == 1 {
            return refuse(LineRefusal::Unpaired);
        }
        if texts.len() > MAX_CONDITIONAL {
            return refuse(LineRefusal::TooLong {
                max: MAX_CONDITIONAL,
            });
        }
        let mut pos = self.pos.clone();
        let mut line = Vec::with_capacity(texts.len());
        for (i, (number, text)) in texts.iter().enumerate() {
            if pos.outcome().is_some() {
                return refuse(LineRefusal::OverBefore { text: text.clone() });
            }
            let in_move = |why: Refusal| LineRefusal::InMove {
                index: i + 1,
                text: text.clone(),
                why: Box::new(why),
            };
            if let Some(written) = number
                && let Err(wrong) = self.check_number(*written, pos.move_number(), pos.turn())
            {
                return refuse(in_move(wrong));
            }
            // Both sides' moves on the line are this player's writing.
            match pos.read_in(text, self.read_in(color, lang)) {
                Ok(read) => {
                    pos.play(&read.ply);
                    line.push(read.ply);
                }
                Err(e) => return refuse(in_move(Refusal::Move(e))),
            }
        }
        let refusal = self.check(
            color,
            &Action::Conditional(line.clone()),
            Timestamp::UNIX_EPOCH,
        );
        refusal.map(|()| line)
    }
}
