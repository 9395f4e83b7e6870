//! The one way a move is played: the rules, then the narration, then the
//! record of it. The writer plays a game's moves with it, one request at a
//! time, and the transcript plays a whole seeded game with it.

use crate::narration::{self, Audience, Cast, Detail, MoveContext, Narration};
use crate::rules::{self, GameState, RulesError, Table, Throw};

use super::{MoveRecord, ThrowOrigin};

/// Where a game stands before its next move: what playing and narrating
/// that move reads besides its throw.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// The game's table (options, team sizes, first side).
    pub table: &'a Table,
    /// The names the narration uses.
    pub cast: &'a Cast,
    /// Who the narration is for.
    pub audience: Audience,
    /// The state after the last move.
    pub state: &'a GameState,
    /// The last move's narration (its rules are not repeated word for
    /// word, and its memory of the rules stated carries on); `None` before
    /// the first move.
    pub previous: Option<&'a Narration>,
}

/// Play move number `n` (1-based), `throw` from `origin`, on the game at
/// `turn`: the rules' events and new state, the narration, and the record
/// of it all. The context fact the narration tells, if any, is remembered
/// in `told` (the game's facts told so far, oldest first).
///
/// # Errors
/// [`RulesError`] when the rules refuse the throw (the game is over, or
/// the throw does not fit the table); `told` is then unchanged.
pub fn play_move(
    turn: &Turn<'_>,
    n: u32,
    throw: Throw,
    origin: ThrowOrigin,
    told: &mut Vec<String>,
) -> Result<MoveRecord, RulesError> {
    let options = turn.table.options();
    let seat = turn.state.to_throw(turn.table);
    let from = turn.state.awl(seat.side);
    let played = rules::play(turn.table, turn.state, &throw)?;
    let to = played.state.awl(seat.side);
    // The stored narration is the lesson's: its plan is the game's memory,
    // and every other detail level is rendered from it when read.
    let narration = narration::narrate_move(&MoveContext {
        options,
        cast: turn.cast,
        audience: turn.audience,
        detail: Detail::Lesson,
        move_number: n,
        from,
        to,
        other_awl: played.state.awl(seat.side.other()),
        seat,
        throw: &throw,
        score: &played.score,
        events: &played.events,
        told,
        previous: turn.previous,
    });
    if let Some(fact) = narration.fact() {
        narration::remember_fact(told, fact);
    }
    Ok(MoveRecord {
        n,
        seat,
        origin,
        throw,
        score: played.score,
        from,
        to,
        events: played.events,
        narration,
        state: played.state,
    })
}
