//! The read-aloud form's parts: the bare turn lines it leaves out, the
//! note for the teacher that opens it, and a game stopped as a teacher
//! stops one (`--stop-after`).

use std::fmt::Write as _;

use super::{NarratedGame, TranscriptRequest};
use crate::narration::{Audience, Narration, Segment, SegmentKind};

/// A pace for reading a lesson aloud to a class, for the read-aloud form's
/// estimate of its length.
pub const READ_ALOUD_WORDS_A_MINUTE: usize = 130;

/// Whether a segment only says that the other side, of one player, throws
/// next: the read-aloud form leaves it out, as its next paragraph begins
/// with that side's name. (A team's next player is still named.)
pub(super) fn is_plain_turn_pass(segment: &Segment) -> bool {
    segment.kind == SegmentKind::Event
        && segment.rule.as_deref() == Some(crate::narration::RuleId::TurnPass.key())
}

/// The read-aloud form's opening note for the teacher: how long this
/// game is read aloud, how long a game of its rules runs on average, how to
/// hold a long one to a lesson of [`LESSON_MINUTES`], and where the
/// sources are.
pub(super) fn teacher_note(
    game: &NarratedGame,
    moves: &str,
    audience: Audience,
    request: &TranscriptRequest,
) -> String {
    let words = moves.split_whitespace().count();
    let minutes = words.div_ceil(READ_ALOUD_WORDS_A_MINUTE).max(1);
    let mut note = format!(
        "(For the teacher, not to be read aloud: {words} words, about {minutes} minutes at \
         {READ_ALOUD_WORDS_A_MINUTE} words a minute."
    );
    // The young framing leaves the average length to the teacher.
    if audience == Audience::Young
        && let Some(length) = crate::narration::game_length(&game.options, Audience::General)
    {
        let _ = write!(note, " {}", length.text);
    }
    let _ = write!(note, " This game has {} moves.", game.moves.len());
    if minutes > LESSON_MINUTES && request.stop_after.is_none() {
        // The last move whose paragraphs, with a stop's few sentences after
        // them, still fit the lesson.
        let budget = LESSON_MINUTES * READ_ALOUD_WORDS_A_MINUTE - STOP_WORDS;
        let mut said = 0;
        let fits = moves
            .split("\n\n")
            .take_while(|paragraph| {
                said += paragraph.split_whitespace().count();
                said <= budget
            })
            .count();
        let _ = write!(
            note,
            " To stop it within about {LESSON_MINUTES} minutes, add --stop-after {fits}: \
             the side with more counting sticks then wins."
        );
    }
    let _ = write!(
        note,
        " The full transcript cites the sources of every sentence: `{}`.)",
        request.command()
    );
    note
}

/// The lesson the read-aloud form's note fits a long game to, in minutes.
pub const LESSON_MINUTES: usize = 20;

/// Words left for a stopped game's sentences and a turn finished after
/// the stop, when the note fits a game to a lesson.
const STOP_WORDS: usize = 80;

/// Stop `game` after its move `n` (or, when that move earned another
/// throw, at the end of its side's turn), as a teacher stops a game: its
/// later moves are dropped and the stop narrated. `None` when the game
/// ended by then (nothing to stop).
pub(super) fn stop_at(game: &mut NarratedGame, n: u32, audience: Audience) -> Option<Narration> {
    let mut keep = usize::try_from(n).unwrap_or(usize::MAX).max(1);
    // Not in the middle of a turn: a move that earned another throw is
    // followed to the end of its side's turn.
    while game
        .moves
        .get(keep - 1)
        .is_some_and(|m| m.state.extra_throw)
    {
        keep += 1;
    }
    if game.moves.len() <= keep {
        return None;
    }
    game.moves.truncate(keep);
    let state = &game.moves.last()?.state;
    let (state, event) = crate::rules::stop(state).ok()?;
    Some(crate::narration::narrate_stop(
        &game.options,
        &game.cast,
        audience,
        state.counters,
        &event,
    ))
}
