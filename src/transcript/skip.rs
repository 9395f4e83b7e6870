//! A long game read aloud in a lesson's time: its opening, its ending and
//! its first fall, whip and trip around told throw by throw, the
//! stretches between in a paragraph each ([`narrate_skip`]).
//!
//! Teachers' trials: a whole composite game read throw by throw ran 8 to
//! 51 minutes (median 15), "too long" (4/10); one told with fewer counting
//! sticks was "usable" (7/10), but it is not the game the sources
//! describe. Telling stretches in short keeps the game whole, with its
//! rules, its counting sticks and its winner.

use std::ops::Range;

use super::NarratedGame;
use super::read_aloud::{
    CLIFFHANGER_BACK, Paragraph, READ_ALOUD_WORDS_A_MINUTE, Told, WHOLE_MARGIN_PERCENT,
};
use crate::narration::{
    Audience, CLOSE, Counted, Narration, REMIND_AFTER, RuleId, SKIP_MIN, Segment, SegmentKind,
    Skipped, awls_apart, insert_rule, narrate_skip,
};
use crate::rules::{Event, Options};

/// The moves of a long game told in short, as read aloud.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Skip {
    /// The stretches told in short, in order, each between two turns
    /// (indices into the game's moves): one, or one before and one after
    /// each of the first fall, whip and trip around that the opening does
    /// not reach, a long one split in two at a turn where a side takes
    /// the lead ([`lead_turn`]).
    pub moves: Vec<Range<usize>>,
    /// The words of the game read throw by throw.
    pub whole_words: usize,
    /// How many turns where a side takes the lead split a long stretch
    /// ([`lead_turn`]).
    pub leads: usize,
}

/// The words a paragraph telling a stretch in short is reckoned at before
/// it is written (the rules first acting in it come on top).
const SKIP_WORDS: usize = 40;

/// The moves of `game` to tell in short so that it reads in about
/// `minutes`, from its paragraphs told throw by throw (`paragraphs`, with
/// the stop's and the closing's): none when it reads within them (or a
/// fifth more, [`WHOLE_MARGIN_PERCENT`]) or no stretch would be as long as
/// [`SKIP_MIN`] moves.
///
/// Told in full: an opening, an ending, and the turn of each first fall,
/// whip and trip around between them, at its moment (a teacher's trial:
/// in none of seven long games had the class seen all three happen
/// before the one stretch told in short; their rules came as talk in it).
/// Of the words left after the framing, the stop and the closing (and
/// `spare`, taken off to shorten a first try) and after those turns, the
/// opening takes half (at least a third of all), the ending the rest.
/// Each stretch told in short starts and ends between two turns, and
/// does not start as the awls come close.
pub(super) fn skip_ranges(
    game: &NarratedGame,
    paragraphs: &[Paragraph],
    minutes: usize,
    spare: usize,
) -> Vec<Range<usize>> {
    let budget = minutes * READ_ALOUD_WORDS_A_MINUTE;
    let total: usize = paragraphs.iter().map(Paragraph::words).sum();
    if total <= budget * (100 + WHOLE_MARGIN_PERCENT) / 100 {
        return Vec::new();
    }
    let fixed: usize = paragraphs
        .iter()
        .filter(|p| matches!(p.told, Told::Framing | Told::Stop | Told::LookingBack))
        .map(Paragraph::words)
        .sum();
    let avail = budget.saturating_sub(fixed + spare);
    let moves = &game.moves;
    let n = moves.len();
    let played: Vec<&Paragraph> = paragraphs
        .iter()
        .filter(|p| !matches!(p.told, Told::Framing | Told::Stop | Told::LookingBack))
        .collect();
    // The words of `range` read throw by throw: the paragraphs that begin
    // in it (a stretch of turns, by its first move).
    let words_in = |range: &Range<usize>| -> usize {
        played
            .iter()
            .filter(|p| range.contains(&p.moves.start))
            .map(|p| p.words())
            .sum()
    };
    let calm = |k: usize| calm(game, k);
    let first =
        |counted: fn(&Event) -> bool| moves.iter().position(|m| m.events.iter().any(counted));
    let mut wanted: Vec<usize> = [
        first(|e| matches!(e, Event::FellIntoCreek { .. })),
        first(|e| matches!(e, Event::Whipped { .. })),
        first(|e| matches!(e, Event::CompletedCircuit { .. })),
    ]
    .into_iter()
    .flatten()
    .collect();
    wanted.sort_unstable();
    wanted.dedup();
    let moment = |w: usize, limit: usize| moment(game, w, limit);
    // The opening and the ending share what the moments leave; the
    // moments are those between them, so a second pass settles both.
    let (mut start, mut end, mut moments) = (1, n, Vec::new());
    let mut cost = 0;
    for _ in 0..2 {
        // At least a third of the words, so the class knows the game
        // before the first stretch told in short.
        let share = (avail.saturating_sub(cost) / 2).max(avail / 3);
        // The opening: paragraphs from the start while they fit, at least
        // the first move, to the end of a turn.
        start = 1;
        let mut words = 0;
        let mut opening = 0;
        for p in &played {
            words += p.words();
            if words > share && p.moves.end > 1 {
                break;
            }
            start = start.max(p.moves.end);
            opening = words;
        }
        // Each side's first turns told throw by throw (a teacher's trial:
        // a skip before the second side's second turn).
        start = start.max(super::turns::opening_end(game));
        while start < n && moves[start - 1].state.extra_throw {
            start += 1;
        }
        // Not as the awls come close: the latest end of a turn before,
        // within CLIFFHANGER_BACK moves and after the opening's own
        // moments, where they are not.
        let reached = wanted
            .iter()
            .filter(|&&w| w < start)
            .max()
            .map_or(1, |&w| w + 1);
        if !calm(start)
            && let Some(earlier) = (start.saturating_sub(CLIFFHANGER_BACK).max(reached)..start)
                .rev()
                .find(|&k| calm(k))
        {
            start = earlier;
        }
        // The ending: paragraphs from the last back while they fit, at
        // least the last, from the start of a turn.
        let rest = avail.saturating_sub(cost + opening);
        end = n;
        let mut words = 0;
        for p in played.iter().rev() {
            words += p.words();
            if words > rest && p.moves.start < n - 1 {
                break;
            }
            end = end.min(p.moves.start);
        }
        while end > start && moves[end - 1].state.extra_throw {
            end -= 1;
        }
        moments = wanted
            .iter()
            .filter(|&&w| w >= start && w < end)
            .map(|&w| moment(w, end))
            .collect();
        cost = moments
            .iter()
            .map(|m| words_in(m) + SKIP_WORDS)
            .sum::<usize>()
            + SKIP_WORDS;
    }
    // What is told in full, in order, near parts joined: a stretch
    // shorter than SKIP_MIN moves between two is told in full too.
    let mut full: Vec<Range<usize>> = Vec::new();
    full.push(0..start);
    for part in moments.into_iter().chain(std::iter::once(end..n)) {
        let last = full.len() - 1;
        if part.start < full[last].end + SKIP_MIN {
            full[last].end = full[last].end.max(part.end);
        } else {
            full.push(part);
        }
    }
    full.windows(2).map(|w| w[0].end..w[1].start).collect()
}

/// The end of the turn move `k` of `game` is in.
fn turn_end(game: &NarratedGame, k: usize) -> usize {
    let moves = &game.moves;
    let mut end = k + 1;
    while end < moves.len() && moves[end - 1].state.extra_throw {
        end += 1;
    }
    end
}

/// Whether a stretch told in short may begin at move `k` of `game`: a
/// turn begins there and the awls are not close (the class would wait for
/// the whip).
fn calm(game: &NarratedGame, k: usize) -> bool {
    let state = &game.moves[k - 1].state;
    !state.extra_throw && awls_apart(&game.options, state.awls).is_none_or(|d| d > CLOSE)
}

/// The turn of move `w` of `game`, told in full between two stretches
/// told in short, on until the awls are not close (at most
/// [`CLIFFHANGER_BACK`] moves more), up to move `limit`.
fn moment(game: &NarratedGame, w: usize, limit: usize) -> Range<usize> {
    let moves = &game.moves;
    let mut start = w;
    while start > 0 && moves[start - 1].state.extra_throw {
        start -= 1;
    }
    let mut end = turn_end(game, w);
    while end < limit && !calm(game, end) && end < turn_end(game, w) + CLIFFHANGER_BACK {
        end = turn_end(game, end);
    }
    start..end.min(limit)
}

/// A stretch told in short longer than this many moves is told as two,
/// with a turn where a side takes the lead in counting sticks told in full
/// between them ([`lead_turn`]).
pub(super) const LONG_STRETCH: usize = 80;

/// How much longer than its minutes a game read aloud may grow by telling
/// a long stretch as two ([`lead_turn`]).
pub(super) const SPLIT_MARGIN_PERCENT: usize = 15;

/// The turn told in full that splits `stretch` of `game`, when it is
/// longer than [`LONG_STRETCH`] moves: of those where a side takes the
/// lead in counting sticks (the other led or they were even), the one
/// nearest its middle that leaves at least [`SKIP_MIN`] moves told in
/// short on each side, with the awls not close after it ([`moment`]), one
/// they are not close after its own turn first.
///
/// A teacher's trial: in a long game one paragraph told 176 of 255
/// throws, and the lead changed hands inside it unheard.
pub(super) fn lead_turn(game: &NarratedGame, stretch: &Range<usize>) -> Option<Range<usize>> {
    if stretch.len() <= LONG_STRETCH {
        return None;
    }
    let moves = &game.moves;
    let leader = |k: usize| {
        let [a, b] = moves[k - 1].state.counters;
        a.cmp(&b)
    };
    let middle = stretch.start + stretch.len() / 2;
    (stretch.start + SKIP_MIN..stretch.end)
        .filter(|&k| !moves[k - 1].state.extra_throw)
        .map(|k| moment(game, k, stretch.end))
        .filter(|turn| {
            let after = leader(turn.end);
            after != std::cmp::Ordering::Equal
                && after != leader(turn.start)
                && turn.end + SKIP_MIN <= stretch.end
                && calm(game, turn.end)
        })
        // A turn the awls are not close after reads shortest.
        .min_by_key(|turn| {
            (
                turn.end != turn_end(game, turn.start),
                turn.start.abs_diff(middle),
            )
        })
}

/// The rules first stated in a stretch told in short (`skips`, moves as
/// `told`) and not before: the first statement of each, in order.
fn first_stated(told: &[Narration], skips: &[Range<usize>]) -> Vec<Segment> {
    let mut known = std::collections::BTreeSet::new();
    let mut first = Vec::new();
    for (i, t) in told.iter().enumerate() {
        let skipped = skips.iter().any(|s| s.contains(&i));
        for s in t.segments.iter().filter(|s| s.kind == SegmentKind::Rule) {
            if let Some(key) = &s.rule
                && known.insert(key.clone())
                && skipped
            {
                first.push(s.clone());
            }
        }
    }
    first
}

/// What `rule` is the rule of among what a stretch told in short counts
/// (a fall into either creek, a whip, a trip around), so that a stretch
/// where it acts can state it (a curator's trial: a first fall into the
/// south creek was counted in a stretch, its rule never told).
fn counted(options: &Options, rule: &Segment) -> Option<Counted> {
    rule.rule
        .as_deref()
        .and_then(|key| key.parse::<RuleId>().ok())
        .and_then(|id| Counted::rule_of(options, id))
}

/// Where the class hears each rule first stated in a stretch told in
/// short (`skips`, moves as `told`): the rules each stretch states itself,
/// and the moves told in full that state one in full, by move.
///
/// A rule is heard at its first action ([`acts`]) from the game's start,
/// before its stretch when a move told in full there acted without
/// stating it (a whip ending in a fall): in a stretch told in short when
/// it is one of what that counts ([`counted`]), else at a move told in
/// full; or not at all when it does not act again (a curator's trial: the whip rule, first
/// stated as the awls came near, was told "coming into play" in throws
/// with no whips; a teacher's: three to five rules in a row in the middle
/// told in short, which the class never saw act).
fn heard(
    game: &NarratedGame,
    told: &[Narration],
    skips: &[Range<usize>],
) -> (Vec<Vec<Segment>>, Vec<(usize, Segment)>) {
    let options = &game.options;
    let mut in_skips = vec![Vec::new(); skips.len()];
    let mut at_moves = Vec::new();
    for rule in first_stated(told, skips) {
        // From the game's start: a whip ending in a fall told in full
        // before the stretch is the whip rule's first action (a curator's
        // trial: the stretch after it said the rule "starts to matter").
        // The dry branches' rule too, which changes nothing a stretch
        // counts (a teacher's trial: first acting in a stretch, it waited
        // for the next landing told in full, throw 231 of 238, as the
        // awls came close for the last whip).
        let dry_branch =
            rule.rule.as_deref() == Some(RuleId::landed_on_dry_branch(options.dry_branch).key());
        let Some(i) = (0..told.len()).find(|&i| {
            acts(game, told, i, &rule)
                && skips
                    .iter()
                    .all(|s| !s.contains(&i) || dry_branch || counted(options, &rule).is_some())
        }) else {
            continue;
        };
        match skips.iter().position(|s| s.contains(&i)) {
            Some(j) => in_skips[j].push(rule),
            None => at_moves.push((i, rule)),
        }
    }
    (in_skips, at_moves)
}

/// Whether `rule` acts at move `i` of `game` (told as `told`): a segment
/// of an event under it, a whip ending in a fall for the whip's rule (a
/// teacher's trial: the first whip, one ending in a fall, came without
/// "Land right on the other awl and you whip it!"), or a landing on a dry
/// branch for the dry branches' rule (folded into the throw's sentence:
/// "to 31, a dry branch" came unexplained).
pub(super) fn acts(game: &NarratedGame, told: &[Narration], i: usize, rule: &Segment) -> bool {
    let key = rule.rule.as_deref();
    let whip_then_fall = key == Some(RuleId::Whip.key());
    // The extra throw's rule acts on a move that keeps its extra throw
    // after a fall, a whip or a forced pass (a teacher's trial: first
    // acting in a stretch, it was never told, and a fall told in full was
    // followed by "Side A again!").
    let upset = |e: &Event| {
        matches!(
            e,
            Event::FellIntoCreek { .. } | Event::Whipped { .. } | Event::ForcedPass { .. }
        )
    };
    if key == Some(RuleId::ExtraThrowFromSticks.key()) {
        let events = &game.moves[i].events;
        return events.iter().any(upset)
            && events
                .iter()
                .any(|e| matches!(e, Event::ThrowsAgain { .. }));
    }
    let dry_branch = key == Some(RuleId::landed_on_dry_branch(game.options.dry_branch).key());
    told[i].segments.iter().any(|s| {
        s.kind == SegmentKind::Event
            && (s.rule == rule.rule
                || (whip_then_fall && s.rule.as_deref() == Some(RuleId::WhipThenFall.key())))
    }) || (dry_branch
        && game.moves[i]
            .events
            .iter()
            .any(|e| matches!(e, Event::LandedOnDryBranch { .. })))
}

/// `told` with each rule first stated in a stretch told in short that a
/// move told in full states ([`heard`]) stated in full there: in place of
/// a short restatement, or before the move's own rules and events; and no
/// short restatement of a rule within [`REMIND_AFTER`] moves after a
/// stretch or a move stated it so (a teacher's trial: the south creek's
/// rule stated in a stretch, then again in short a few throws on).
pub(super) fn defer_rules(game: &NarratedGame, told: &mut [Narration], skips: &[Range<usize>]) {
    let (in_skips, at_moves) = heard(game, told, skips);
    let mut heard_at: Vec<(usize, Option<String>)> = Vec::new();
    for (k, rules) in in_skips.iter().enumerate() {
        heard_at.extend(rules.iter().map(|r| (skips[k].end - 1, r.rule.clone())));
    }
    for (i, rule) in at_moves {
        heard_at.push((i, rule.rule.clone()));
        let t = &mut told[i];
        match t
            .segments
            .iter()
            .position(|s| s.kind == SegmentKind::Rule && s.rule == rule.rule)
        {
            Some(at) => t.segments[at] = rule,
            None => {
                // Before the move's own rules (a whip's before that of a
                // whip ending in a fall) and its events; an extra throw's
                // before the throw again it explains.
                insert_rule(&mut t.segments, rule);
            }
        }
    }
    let soon = usize::try_from(REMIND_AFTER).unwrap_or(usize::MAX);
    for (at, rule) in heard_at {
        for t in told.iter_mut().skip(at + 1).take(soon) {
            t.segments
                .retain(|s| !(s.kind == SegmentKind::Rule && s.brief && s.rule == rule));
        }
    }
}

/// The paragraph's segments telling `skips[k]`, moves of `game` as `told`,
/// in short for `audience`: the rules it states ([`heard`]), what
/// happened in it, by side, and where the game stands after it.
pub(super) fn skip_segments(
    game: &NarratedGame,
    told: &[Narration],
    audience: Audience,
    skips: &[Range<usize>],
    k: usize,
) -> Vec<Segment> {
    let stated = heard(game, told, skips).0;
    let moves = &game.moves[skips[k].clone()];
    let last = &moves[moves.len() - 1];
    let mut skipped = Skipped::of(moves.iter().map(|m| m.events.as_slice()));
    skipped.heard = heard_of(game, told, skips, &stated, k);
    let before = game.moves[skips[k].start - 1].state.counters;
    let after: Vec<[u8; 2]> = moves.iter().map(|m| m.state.counters).collect();
    skipped.peak = Skipped::peak_of(before, &after, game.options.total_counters());
    skipped.before = before;
    narrate_skip(
        &game.options,
        &game.cast,
        audience,
        moves[0].n,
        skipped,
        stated.into_iter().nth(k).unwrap_or_default(),
        last.state.counters,
        last.state.awls,
    )
    .segments
}

/// Which of what a stretch told in short counts ([`Counted`]) the class
/// has heard of by the end of `skips[k]` (moves of `game` as `told`, the
/// rules each stretch states `stated`): one seen or counted before it, its
/// rule told in a move told in full before it, or stated in a stretch up
/// to it.
fn heard_of(
    game: &NarratedGame,
    told: &[Narration],
    skips: &[Range<usize>],
    stated: &[Vec<Segment>],
    k: usize,
) -> [bool; 3] {
    let options = &game.options;
    let start = skips[k].start;
    let mut out = [false; 3];
    let mut hear = |what: Option<Counted>| {
        if let Some(what) = what {
            out[what as usize] = true;
        }
    };
    for (i, m) in game.moves[..start].iter().enumerate() {
        for e in &m.events {
            hear(Counted::of(e).map(|(what, _)| what));
        }
        if !skips.iter().any(|s| s.contains(&i)) {
            for s in told[i]
                .segments
                .iter()
                .filter(|s| s.kind == SegmentKind::Rule)
            {
                hear(counted(options, s));
            }
        }
    }
    for s in stated.iter().take(k + 1).flatten() {
        hear(counted(options, s));
    }
    out
}
