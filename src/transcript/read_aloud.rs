//! The read-aloud form's parts: the bare turn lines it leaves out, the
//! note for the teacher that opens it, and a game stopped as a teacher
//! stops one (`--stop-after`).

use std::fmt::Write as _;

use super::{NarratedGame, TranscriptRequest};
use crate::narration::{
    Audience, Narration, STRETCH_MAX, STRETCH_MIN, Segment, SegmentKind, StretchThrow, awls_apart,
    awls_apart_segment, is_plain_move, narrate_stretch,
};

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

/// The read-aloud form's paragraphs, each with the number of moves told
/// by its end: a paragraph a move, except that plain moves in a row (at
/// least [`STRETCH_MIN`]) are told together, at most [`STRETCH_MAX`] to a
/// paragraph (a teacher's trial: "80 % of a long game's lines are bare
/// throws", in runs of 16 to 21). `told` is each move as told.
pub(super) fn paragraphs(
    game: &NarratedGame,
    told: &[Narration],
    audience: Audience,
) -> Vec<(usize, String)> {
    let plain: Vec<bool> = game
        .moves
        .iter()
        .zip(told)
        .map(|(m, t)| is_plain_move(&m.events, &t.segments, m.state.extra_throw))
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < game.moves.len() {
        let run = plain[i..].iter().take_while(|p| **p).count();
        if run < STRETCH_MIN {
            let segments: Vec<&Segment> = told[i]
                .segments
                .iter()
                .filter(|s| !is_plain_turn_pass(s))
                .collect();
            let mut words: Vec<&str> = segments.iter().map(|s| s.text.as_str()).collect();
            // Where the awls stand goes with what happened, before a fact
            // or the odds.
            let apart = newly_face_to_face(game, i, audience);
            if let Some(apart) = &apart {
                let after_events = segments
                    .iter()
                    .rposition(|s| s.kind == SegmentKind::Event)
                    .map_or(words.len(), |at| at + 1);
                words.insert(after_events, &apart.text);
            }
            i += 1;
            out.push((i, words.join(" ")));
            continue;
        }
        // A long run in even parts, none longer than STRETCH_MAX.
        let parts = run.div_ceil(STRETCH_MAX);
        for part in 0..parts {
            let len = run / parts + usize::from(part < run % parts);
            let moves = &game.moves[i..i + len];
            let throws: Vec<StretchThrow> = moves
                .iter()
                .map(|m| StretchThrow {
                    side: m.seat.side,
                    value: m.score.value,
                })
                .collect();
            let last = &moves[len - 1];
            let stretch = narrate_stretch(
                &game.options,
                &game.cast,
                audience,
                moves[0].n,
                &throws,
                last.state.awls,
            );
            let words: Vec<&str> = stretch.segments.iter().map(|s| s.text.as_str()).collect();
            i += len;
            out.push((i, words.join(" ")));
        }
    }
    out
}

/// How far apart the awls face each other after move `i` of `game`, told
/// when they have just come within a throw of each other and the game goes
/// on (a teacher's trial: by ear, a whip "at 7" came as a surprise).
pub(super) fn newly_face_to_face(
    game: &NarratedGame,
    i: usize,
    audience: Audience,
) -> Option<Segment> {
    let m = game.moves.get(i)?;
    let before = i
        .checked_sub(1)
        .and_then(|j| game.moves.get(j))
        .map_or([1, 1], |b| b.state.awls);
    if m.state.is_finished() || awls_apart(&game.options, before).is_some() {
        return None;
    }
    awls_apart_segment(&game.options, audience, m.n, m.state.awls)
}

/// The read-aloud form's opening note for the teacher: how long this
/// game is read aloud, how long a game of its rules runs on average, how to
/// hold a long one to a lesson of [`LESSON_MINUTES`], and where the
/// sources are.
pub(super) fn teacher_note(
    game: &NarratedGame,
    paragraphs: &[(usize, String)],
    audience: Audience,
    request: &TranscriptRequest,
) -> String {
    let count = |p: &str| p.split_whitespace().count();
    let words: usize = paragraphs.iter().map(|(_, p)| count(p)).sum();
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
        let fits = paragraphs
            .iter()
            .take_while(|(_, paragraph)| {
                said += count(paragraph);
                said <= budget
            })
            .last()
            .map_or(1, |(moves, _)| *moves);
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
