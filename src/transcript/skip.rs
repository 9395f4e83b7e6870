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
    Audience, CLOSE, Narration, RuleId, SKIP_MIN, Segment, SegmentKind, Skipped, awls_apart,
    narrate_skip,
};
use crate::rules::{Event, Options};

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

/// The most of the words left for the opening and the ending, in percent,
/// that the opening takes to reach the first fall, whip and trip around.
const OPENING_MOST: usize = 70;

/// The moves of `game` to tell in short so that it reads in about
/// `minutes`, from its paragraphs told throw by throw (`paragraphs`, with
/// the stop's and the closing's): `None` when it reads within them (or a
/// fifth more, [`WHOLE_MARGIN_PERCENT`]) or the middle would be shorter
/// than [`SKIP_MIN`] moves. Of the words left after the framing, the stop
/// and the closing (and `spare`, taken off to shorten a first try), the
/// opening takes half, or more to reach the first fall, whip and trip
/// around (at most [`OPENING_MOST`] percent), the ending the rest; the
/// middle starts and ends between two turns, not as the awls come close.
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
    let avail = budget.saturating_sub(fixed + SKIP_WORDS + spare);
    let moves = &game.moves;
    let played: Vec<&Paragraph> = paragraphs
        .iter()
        .filter(|p| !matches!(p.told, Told::Framing | Told::Stop | Told::LookingBack))
        .collect();
    // The opening: paragraphs from the start while they fit half the
    // words, at least the first move; then on to the first fall, whip and
    // trip around, each told at its moment, while the opening fits
    // OPENING_MOST percent of them (a teacher's trial: "the class never
    // hears a trip around happen; those rules arrive as talk in the
    // skip"); to the end of a turn.
    let first = |counted: fn(&Event) -> bool| {
        moves
            .iter()
            .position(|m| m.events.iter().any(counted))
            .map_or(0, |i| i + 1)
    };
    let wanted = [
        first(|e| matches!(e, Event::FellIntoCreek { .. })),
        first(|e| matches!(e, Event::Whipped { .. })),
        first(|e| matches!(e, Event::CompletedCircuit { .. })),
    ];
    let mut start = 1;
    let mut words = 0;
    let mut opening = 0;
    for p in &played {
        words += p.words();
        let seen = wanted.iter().all(|&w| w <= start);
        if (words > avail / 2 && p.moves.end > 1 && seen) || words > avail * OPENING_MOST / 100 {
            break;
        }
        start = start.max(p.moves.end);
        opening = words;
    }
    while start < moves.len() && moves[start - 1].state.extra_throw {
        start += 1;
    }
    let half = avail.saturating_sub(opening);
    // Not as the awls come close (the class would wait for the whip): the
    // latest end of a turn before, within CLIFFHANGER_BACK moves, where
    // they are not.
    let calm = |k: usize| {
        !moves[k - 1].state.extra_throw
            && awls_apart(&game.options, moves[k - 1].state.awls).is_none_or(|d| d > CLOSE)
    };
    let reached = wanted
        .into_iter()
        .filter(|&w| w <= start)
        .max()
        .unwrap_or(1);
    if !calm(start)
        && let Some(earlier) = (start.saturating_sub(CLIFFHANGER_BACK).max(reached).max(1)..start)
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

/// The rules first stated in `skip`, moves as `told`, and not before: the
/// first statement of each, in order.
fn first_stated(told: &[Narration], skip: &Range<usize>) -> Vec<Segment> {
    let rules = |t: &Narration| {
        t.segments
            .iter()
            .filter(|s| s.kind == SegmentKind::Rule)
            .filter_map(|s| s.rule.clone())
            .collect::<Vec<_>>()
    };
    // One pass: the rules stated before the middle, then each first in it.
    let mut known: std::collections::BTreeSet<String> =
        told[..skip.start].iter().flat_map(rules).collect();
    let mut first = Vec::new();
    for t in &told[skip.clone()] {
        for s in t.segments.iter().filter(|s| s.kind == SegmentKind::Rule) {
            if let Some(key) = &s.rule
                && known.insert(key.clone())
            {
                first.push(s.clone());
            }
        }
    }
    first
}

/// Whether the middle told in short, `skip` (moves as `told`), states
/// `rule` itself: a rule of what it counts (a fall into the north creek, a
/// whip, a trip around) that acts in it (a move there has an event under
/// it), which its counts need. Any other rule first stated in it waits for
/// its next action in the ending ([`defer_rules`]) (a curator's trial: the
/// whip rule, first stated as the awls came near, was told "coming into
/// play" in throws with no whips).
fn counted(options: &Options, told: &[Narration], skip: &Range<usize>, rule: &Segment) -> bool {
    let keys = [
        RuleId::north_creek(options.deadly_north_bank),
        RuleId::Whip,
        RuleId::circuit(options.own_last_space),
        RuleId::CircuitExactLudii,
    ];
    keys.iter().any(|k| rule.rule.as_deref() == Some(k.key()))
        && told[skip.clone()].iter().any(|t| {
            t.segments
                .iter()
                .any(|s| s.kind == SegmentKind::Event && s.rule == rule.rule)
        })
}

/// `told` with each rule first stated in `skip` that the middle does not
/// state ([`counted`]) stated in full at its first action after it (a
/// move with an event under that rule): in place of a short restatement
/// there, or before the move's events (a teacher's trial: three to five
/// rules in a row in the middle told in short, which the class never saw
/// act). A rule that does not act after the middle is not heard.
pub(super) fn defer_rules(game: &NarratedGame, told: &mut [Narration], skip: &Range<usize>) {
    for rule in first_stated(told, skip) {
        if counted(&game.options, told, skip, &rule) {
            continue;
        }
        let acts = |t: &Narration| {
            t.segments
                .iter()
                .any(|s| s.kind == SegmentKind::Event && s.rule == rule.rule)
        };
        let Some(t) = told.iter_mut().skip(skip.end).find(|t| acts(t)) else {
            continue;
        };
        match t
            .segments
            .iter()
            .position(|s| s.kind == SegmentKind::Rule && s.rule == rule.rule)
        {
            Some(at) => t.segments[at] = rule,
            None => {
                let at = t
                    .segments
                    .iter()
                    .position(|s| s.kind == SegmentKind::Event)
                    .unwrap_or(t.segments.len());
                t.segments.insert(at, rule);
            }
        }
    }
}

/// The paragraph's segments telling `skip`, moves of `game` as `told`, in
/// short for `audience`: the rules of what it counts first stated in them
/// ([`counted`]), what happened in them, and where the game stands after
/// them.
pub(super) fn skip_segments(
    game: &NarratedGame,
    told: &[Narration],
    audience: Audience,
    skip: &Range<usize>,
) -> Vec<Segment> {
    let rules: Vec<Segment> = first_stated(told, skip)
        .into_iter()
        .filter(|r| counted(&game.options, told, skip, r))
        .collect();
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
