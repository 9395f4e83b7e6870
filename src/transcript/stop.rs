//! A game stopped as a teacher stops one (`--stop-after`): its moves told
//! with the stop's rule at the start, and where a lesson's stop falls.

use super::NarratedGame;
use super::read_aloud::{
    CLIFFHANGER_BACK, Paragraph, READ_ALOUD_WORDS_A_MINUTE, WHOLE_MARGIN_PERCENT, read_aloud,
    states_rule,
};
use crate::narration::{
    Audience, CLOSE, Narration, RuleId, Segment, SegmentKind, awls_apart, rule_statement,
};

/// `told`, the moves of a game stopped after them, as a stopped game
/// tells them: the stop's rule told early, right after the counting
/// sticks' rule is first stated (a teacher's trial: told after the first
/// move, it came before the class knew what counting sticks were; a
/// curator's: the Markdown transcript told it only at the stop), so that
/// the class knows from the start how the game will end (where the
/// counting sticks' rule is never stated, at the `brief` detail, the
/// stop's own narration tells it); and the last move without its word on
/// who throws next, as no one does (a curator's trial: "Next: Side B 1."
/// came right before the stop).
pub(super) fn told_stopped(
    game: &NarratedGame,
    told: &[Narration],
    audience: Audience,
) -> Vec<Narration> {
    let mut told = told.to_vec();
    if let Some(last) = told.get_mut(game.moves.len().wrapping_sub(1)) {
        let turns = [
            RuleId::TurnPass,
            RuleId::TurnSideBlocks,
            RuleId::TurnAlternate,
        ]
        .map(RuleId::key);
        last.segments.retain(|s| {
            s.kind != SegmentKind::Event || !s.rule.as_deref().is_some_and(|r| turns.contains(&r))
        });
    }
    let rule = RuleId::StopMostCounters;
    let Some((text, citations)) = rule_statement(&game.options, audience, rule) else {
        return told;
    };
    let counters = RuleId::counters(game.options.end_check);
    for t in told.iter_mut().take(game.moves.len()) {
        if let Some(at) = t.segments.iter().position(|s| states_rule(s, counters)) {
            let segment = Segment {
                kind: SegmentKind::Rule,
                text,
                citations,
                rule: Some(rule.key().to_owned()),
                fact: None,
                brief: false,
            };
            t.segments.insert(at + 1, segment);
            break;
        }
    }
    told
}

/// The `--stop-after` that holds `game` (its moves as `told`) to
/// `minutes` read aloud, checked by telling it so; `None` when the whole
/// game fits, or runs at most [`WHOLE_MARGIN_PERCENT`] past it.
pub(super) fn lesson_stop(
    game: &NarratedGame,
    told: &[Narration],
    audience: Audience,
    minutes: usize,
    closing: &dyn Fn(&NarratedGame) -> super::closing::Closing,
) -> Option<u32> {
    let budget = minutes * READ_ALOUD_WORDS_A_MINUTE;
    let count = |ps: &[Paragraph]| ps.iter().map(Paragraph::words).sum::<usize>();
    let closing_words = |game: &NarratedGame| {
        closing(game)
            .iter()
            .map(|(text, _)| text.split_whitespace().count())
            .sum::<usize>()
    };
    let whole = read_aloud(game, told, audience, None, &[]);
    // A game within a fifth of the time is read whole (a teacher's trial:
    // a stop offered in an 11-minute game saved 40 words and changed
    // nothing).
    if count(&whole) + closing_words(game) <= budget * (100 + WHOLE_MARGIN_PERCENT) / 100 {
        return None;
    }
    // The last move whose paragraphs fit, then fewer until the game
    // stopped there (its turn finished, the stop's rule and result told)
    // fits too.
    let mut said = 0;
    let mut n = whole
        .iter()
        .take_while(|p| {
            said += p.words();
            said <= budget
        })
        .last()
        .map_or(1, |p| p.moves.end);
    while n > 1 {
        let mut stopped = game.clone();
        let stop = stop_at(&mut stopped, u32::try_from(n).ok()?, audience);
        let told = told_stopped(&stopped, told, audience);
        if count(&read_aloud(&stopped, &told, audience, stop.as_ref(), &[]))
            + closing_words(&stopped)
            <= budget
        {
            break;
        }
        n -= 1;
    }
    // Not as the awls come close (a teacher's trial: "Only 3 spaces apart
    // now!", then "Time to stop!"): the latest stop before, within
    // CLIFFHANGER_BACK moves, where they are not.
    let close = |n: usize| {
        let keep = u32::try_from(n).map_or(n, |n| stop_keep(game, n));
        game.moves
            .get(keep - 1)
            .is_some_and(|m| awls_apart(&game.options, m.state.awls).is_some_and(|d| d <= CLOSE))
    };
    if close(n)
        && let Some(earlier) = (n.saturating_sub(CLIFFHANGER_BACK).max(1)..n)
            .rev()
            .find(|&k| !close(k))
    {
        n = earlier;
    }
    u32::try_from(n).ok()
}

/// How many of `game`'s moves a stop after move `n` keeps: up to `n`, or,
/// when that move earned another throw, to the end of its side's turn
/// (never in the middle of a turn).
pub(super) fn stop_keep(game: &NarratedGame, n: u32) -> usize {
    let mut keep = usize::try_from(n).unwrap_or(usize::MAX).max(1);
    while game
        .moves
        .get(keep - 1)
        .is_some_and(|m| m.state.extra_throw)
    {
        keep += 1;
    }
    keep
}

/// Stop `game` after its move `n` (or, when that move earned another
/// throw, at the end of its side's turn), as a teacher stops a game: its
/// later moves are dropped and the stop narrated. `None` when the game
/// ended by then (nothing to stop).
pub(super) fn stop_at(game: &mut NarratedGame, n: u32, audience: Audience) -> Option<Narration> {
    let keep = stop_keep(game, n);
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
