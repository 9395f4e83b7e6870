//! A long game read aloud in a lesson's time: its opening and its ending
//! told throw by throw, the middle in one paragraph ([`narrate_skip`]).
//!
//! Teachers' trials: a whole composite game read throw by throw ran 8 to
//! 51 minutes (median 15), "too long" (4/10); one told with fewer counting
//! sticks was "usable" (7/10), but it is not the game the sources
//! describe. Telling the middle in short keeps the game whole, with its
//! rules, its counting sticks and its winner.

use std::ops::Range;

use super::NarratedGame;
use super::read_aloud::{
    CLIFFHANGER_BACK, Paragraph, READ_ALOUD_WORDS_A_MINUTE, Told, WHOLE_MARGIN_PERCENT,
};
use crate::narration::{
    Audience, CLOSE, Narration, SKIP_MIN, Segment, SegmentKind, Skipped, awls_apart, narrate_skip,
};

/// The middle of a game told in short, as read aloud.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Skip {
    /// The moves told in short (indices into the game's moves).
    pub moves: Range<usize>,
    /// The words of the game read throw by throw.
    pub whole_words: usize,
}

/// The words a paragraph telling the middle in short is reckoned at before
/// it is written (the rules first acting in it come on top).
const SKIP_WORDS: usize = 40;

/// The moves of `game` to tell in short so that it reads in about
/// `minutes`, from its paragraphs told throw by throw (`paragraphs`, with
/// the stop's and the closing's): `None` when it reads within them (or a
/// fifth more, [`WHOLE_MARGIN_PERCENT`]) or the middle would be shorter
/// than [`SKIP_MIN`] moves. The words left after the framing, the stop
/// and the closing (and `spare`, taken off to shorten a first try) go half
/// to the opening, half to the ending; the middle starts and ends between
/// two turns.
pub(super) fn skip_range(
    game: &NarratedGame,
    paragraphs: &[Paragraph],
    minutes: usize,
    spare: usize,
) -> Option<Range<usize>> {
    let budget = minutes * READ_ALOUD_WORDS_A_MINUTE;
    let total: usize = paragraphs.iter().map(Paragraph::words).sum();
    if total <= budget * (100 + WHOLE_MARGIN_PERCENT) / 100 {
        return None;
    }
    let fixed: usize = paragraphs
        .iter()
        .filter(|p| matches!(p.told, Told::Framing | Told::Stop | Told::LookingBack))
        .map(Paragraph::words)
        .sum();
    let half = budget.saturating_sub(fixed + SKIP_WORDS + spare) / 2;
    let moves = &game.moves;
    let played: Vec<&Paragraph> = paragraphs
        .iter()
        .filter(|p| !matches!(p.told, Told::Framing | Told::Stop | Told::LookingBack))
        .collect();
    // The opening: paragraphs from the start while they fit, at least the
    // first move, to the end of a turn.
    let mut start = 1;
    let mut words = 0;
    for p in &played {
        words += p.words();
        if words > half && p.moves.end > 1 {
            break;
        }
        start = start.max(p.moves.end);
    }
    while start < moves.len() && moves[start - 1].state.extra_throw {
        start += 1;
    }
    // Not as the awls come close (the class would wait for the whip): the
    // latest end of a turn before, within CLIFFHANGER_BACK moves, where
    // they are not.
    let calm = |k: usize| {
        !moves[k - 1].state.extra_throw
            && awls_apart(&game.options, moves[k - 1].state.awls).is_none_or(|d| d > CLOSE)
    };
    if !calm(start)
        && let Some(earlier) = (start.saturating_sub(CLIFFHANGER_BACK).max(1)..start)
            .rev()
            .find(|&k| calm(k))
    {
        start = earlier;
    }
    // The ending: paragraphs from the last back while they fit, at least
    // the last, from the start of a turn.
    let mut end = moves.len();
    let mut words = 0;
    for p in played.iter().rev() {
        words += p.words();
        if words > half && p.moves.start < moves.len() - 1 {
            break;
        }
        end = end.min(p.moves.start);
    }
    while end > start && moves[end - 1].state.extra_throw {
        end -= 1;
    }
    (end >= start + SKIP_MIN).then_some(start..end)
}

/// The paragraph's segments telling `skip`, moves of `game` as `told`, in
/// short for `audience`: the rules first stated in them (by a rule
/// segment, its first), what happened in them, and where the game stands
/// after them.
pub(super) fn skip_segments(
    game: &NarratedGame,
    told: &[Narration],
    audience: Audience,
    skip: &Range<usize>,
) -> Vec<Segment> {
    let stated = |t: &Narration, key: &str| {
        t.segments
            .iter()
            .any(|s| s.kind == SegmentKind::Rule && s.rule.as_deref() == Some(key))
    };
    let mut rules: Vec<Segment> = Vec::new();
    for (i, t) in told.iter().enumerate().take(skip.end).skip(skip.start) {
        for s in t.segments.iter().filter(|s| s.kind == SegmentKind::Rule) {
            let Some(key) = s.rule.as_deref() else {
                continue;
            };
            let known = told[..i].iter().any(|t| stated(t, key))
                || rules.iter().any(|r| r.rule.as_deref() == Some(key));
            if !known {
                rules.push(s.clone());
            }
        }
    }
    let moves = &game.moves[skip.clone()];
    let last = &moves[moves.len() - 1];
    narrate_skip(
        &game.options,
        &game.cast,
        audience,
        moves[0].n,
        Skipped::of(moves.iter().map(|m| m.events.as_slice())),
        rules,
        last.state.counters,
        last.state.awls,
    )
    .segments
}
