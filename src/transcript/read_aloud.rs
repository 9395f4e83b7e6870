//! The read-aloud form: its paragraphs (moves told one by one, plain turns
//! and one turn's several throws told together, where the awls stand), the
//! note for the teacher that opens it, and a game stopped as a teacher
//! stops one (`--stop-after`), with the stop's rule told at the start.

use std::collections::BTreeSet;
use std::ops::Range;

use super::NarratedGame;
use super::turns::{chain_at, opening_end};
use crate::narration::{
    Audience, CLOSE, ChainThrow, Narration, RuleId, STRETCH_MAX, STRETCH_MIN, Segment, SegmentKind,
    StretchThrow, awls_apart, awls_meeting_segment, is_quiet_move, lead_change_segment,
    lead_segment, narrate_chain, narrate_stretch, near_win_segment, same_number_segment,
};
use crate::rules::Side;

/// A pace for reading a lesson aloud to a class that stops to react, for
/// the read-aloud form's estimate of its length (a teacher's trial: a
/// class makes 130 words a minute nearer 100).
pub const READ_ALOUD_WORDS_A_MINUTE: usize = 110;

/// The minutes `words` read in at [`READ_ALOUD_WORDS_A_MINUTE`], to the
/// nearest (a teacher's trial: 1,211 words, 11 minutes, were "about 12"),
/// at least one.
pub(super) fn about_minutes(words: usize) -> usize {
    ((words + READ_ALOUD_WORDS_A_MINUTE / 2) / READ_ALOUD_WORDS_A_MINUTE).max(1)
}

/// The longest paragraph the read-aloud form makes of a move's framing
/// and rules before it tells the throw (a single longer rule stays
/// whole): a breath's worth for a class listening.
pub const PARAGRAPH_WORDS: usize = 80;

/// The fewest moves between two sentences saying that two awls on one
/// number stand on different spaces: about a short lesson's moves, so a
/// class hears it once a lesson (a teacher's trial: three times in a game
/// of 37 throws at a gap of 20, "once is enough").
pub const SAME_NUMBER_GAP: u32 = 60;

/// The lesson the read-aloud form's note fits a long game to, in minutes.
pub const LESSON_MINUTES: usize = 20;

/// How far past a lesson's minutes, in percent, a game may run and still
/// be offered whole, with no stop suggested for it.
pub const WHOLE_MARGIN_PERCENT: usize = 20;

/// How many moves a suggested stop may come earlier so as not to end as
/// the awls come close to each other.
pub const CLIFFHANGER_BACK: usize = 12;

/// The shorter stretch of a lesson the note also fits a game to, in
/// minutes (a teacher's trial: 20 minutes is long for 9-10 year olds).
pub const SHORT_LESSON_MINUTES: usize = 10;

/// Whether a segment only says that the other side, of one player, throws
/// next: the read-aloud form leaves it out, as its next paragraph begins
/// with that side's name. (A team's next player is still named.)
pub(super) fn is_plain_turn_pass(segment: &Segment) -> bool {
    segment.kind == SegmentKind::Event && segment.rule.as_deref() == Some(RuleId::TurnPass.key())
}

/// How a paragraph of the read-aloud form tells its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Told {
    /// One move, as the service tells it (but for the bare line on who
    /// throws next).
    Move,
    /// Plain turns in a row ([`narrate_stretch`]).
    Stretch,
    /// One turn of several quiet throws ([`narrate_chain`]).
    Chain,
    /// A stretch of a long game, told in short ([`super::skip`]).
    Skip,
    /// What the game is, told before its first move.
    Framing,
    /// Rules stated before a move's throw, when the move's paragraph
    /// would otherwise run long.
    Rule,
    /// The stopped game's result.
    Stop,
    /// A question to look back on the game, or the line before them.
    LookingBack,
}

/// One paragraph of the read-aloud form.
#[derive(Clone, Debug)]
pub(super) struct Paragraph {
    /// The moves it tells (indices into the game's moves).
    pub moves: Range<usize>,
    /// How (what the tests check each paragraph against, and what the
    /// stretches told in short are chosen by).
    pub told: Told,
    /// Its words.
    pub text: String,
    /// The sentences on where the awls stand that it adds to the moves'
    /// own words (how far apart they face each other, the same number on
    /// different spaces).
    pub added: Vec<String>,
}

impl Paragraph {
    pub(super) fn words(&self) -> usize {
        self.text.split_whitespace().count()
    }
}

/// The read-aloud form's paragraphs of `game`'s moves, `told` being each
/// move as told: a paragraph a move, except that plain turns in a row (at
/// least [`STRETCH_MIN`]) are told together, at most [`STRETCH_MAX`] to a
/// paragraph, and one turn of several quiet throws in a sentence (a
/// teacher's trial: "80 % of a long game's lines are bare throws", in
/// runs of 16 to 21, and "Side A again!" 73 times). After a paragraph,
/// when it is news, how far apart the awls face each other and that two
/// awls on one number stand on different spaces (by ear, a whip came as
/// a surprise, and "to 27" then "onto 27" sounded like one).
/// The moves of each stretch of `skips` are told in short instead, in one
/// paragraph ([`super::skip`]) where they begin.
pub(super) fn paragraphs(
    game: &NarratedGame,
    told: &[Narration],
    audience: Audience,
    skips: &[Range<usize>],
) -> Vec<Paragraph> {
    let moves = &game.moves;
    let quiet: Vec<bool> = moves
        .iter()
        .zip(told)
        .map(|(m, t)| is_quiet_move(&m.events, &t.segments))
        .collect();
    // Where each quiet whole turn from a move ends: a plain move
    // (`is_plain_move`), or a chain whose last throw passed the turn.
    let turn_end: Vec<Option<usize>> = (0..moves.len())
        .map(|i| {
            let chain = chain_at(game, &quiet, i);
            if quiet[i] && !moves[i].state.extra_throw {
                Some(i + 1)
            } else if !chain.is_empty() && !moves[chain.end - 1].state.extra_throw {
                Some(chain.end)
            } else {
                None
            }
        })
        .collect();
    let opening = opening_end(game);
    let mut out: Vec<Paragraph> = Vec::new();
    let mut apart = None;
    // The awls faced each other (not yet past each other, an awl on its
    // start included) at the end of the last paragraph.
    let mut facing = false;
    let mut same = None;
    let mut same_said: Option<u32> = None;
    let mut heard = BTreeSet::new();
    let mut i = 0;
    while i < moves.len() {
        // The quiet whole turns in a row from `i`, by where each ends,
        // none past a stretch told in short.
        let limit = skips
            .iter()
            .find(|s| i < s.start)
            .map_or(moves.len(), |s| s.start);
        // Quick turns neither go on with a turn told before (a teacher's
        // trial: "First comes the extra throw of Side B. Now 4 quick
        // turns": what did it throw?) nor run on as the awls come close
        // (the tense pass summed up: "Only 1 space apart now!", then "Now
        // 6 quick turns").
        // Nor while a side is one counting stick from winning (a
        // teacher's trial: "Now 9 quick turns, nothing special." at 7 to
        // 1, then the winning throw).
        let close = |k: usize| {
            k > 0
                && (awls_apart(&game.options, moves[k - 1].state.awls).is_some_and(|d| d <= CLOSE)
                    || moves[k - 1]
                        .state
                        .counters
                        .iter()
                        .any(|&c| c + 1 == game.options.total_counters()))
        };
        let mut run = Vec::new();
        let mut at = i;
        let goes_on = i > 0 && moves[i - 1].state.extra_throw;
        while let Some(end) = turn_end
            .get(at)
            .copied()
            .flatten()
            .filter(|&e| e <= limit && !goes_on && !close(at))
        {
            run.push(end);
            at = end;
        }
        let chain = chain_at(game, &quiet, i);
        // Each paragraph's moves, how they are told, and its segments.
        let mut said: Vec<(Range<usize>, Told, Vec<Segment>)> = Vec::new();
        if let Some(k) = skips.iter().position(|s| s.start == i) {
            said.push((
                skips[k].clone(),
                Told::Skip,
                super::skip::skip_segments(game, told, audience, skips, k),
            ));
            // What was said of the awls' meeting is past.
            (apart, facing, same) = (None, false, None);
        } else if run.len() >= STRETCH_MIN && i >= opening {
            // A long run in even parts, none longer than STRETCH_MAX turns.
            let parts = run.len().div_ceil(STRETCH_MAX);
            let mut first = i;
            let mut taken = 0;
            for part in 0..parts {
                let len = run.len() / parts + usize::from(part < run.len() % parts);
                taken += len;
                let end = run[taken - 1];
                let span = &moves[first..end];
                let throws: Vec<StretchThrow> = span
                    .iter()
                    .map(|m| StretchThrow {
                        side: m.seat.side,
                        value: m.score.value,
                        earned_another: m.state.extra_throw,
                    })
                    .collect();
                let stretch = narrate_stretch(
                    &game.options,
                    &game.cast,
                    audience,
                    span[0].n,
                    &throws,
                    part,
                    span[span.len() - 1].state.awls,
                    // The turn a throw told before began, gone on with.
                    (first > 0 && moves[first - 1].state.extra_throw).then_some(span[0].seat.side),
                );
                said.push((first..end, Told::Stretch, stretch.segments));
                first = end;
            }
        } else if !chain.is_empty() {
            let span = &moves[chain.clone()];
            let last = &span[span.len() - 1];
            let throws: Vec<ChainThrow> = span
                .iter()
                .map(|m| ChainThrow {
                    value: m.score.value,
                    marked: matches!(m.score.value, 1 | 3) && m.score.throws_again,
                })
                .collect();
            let told = narrate_chain(
                &game.options,
                &game.cast,
                audience,
                span[0].n,
                last.seat,
                &throws,
                last.state.awls[last.seat.side.index()],
                last.state.extra_throw,
            );
            said.push((chain, Told::Chain, told.segments));
        } else {
            let segments: Vec<Segment> = told[i]
                .segments
                .iter()
                .filter(|s| !is_plain_turn_pass(s))
                .cloned()
                .collect();
            said.push((i..i + 1, Told::Move, segments));
        }
        for (span, how, mut segments) in said {
            i = span.end;
            if audience == Audience::Young {
                remind(&mut segments, how, &mut heard);
            }
            let last = &moves[i - 1];
            let mut added = Vec::new();
            // A move told in full that changes who leads says so (a
            // teacher's trial: the turn where Side B took the lead, told
            // between two stretches, never said it).
            let before = span.start.checked_sub(1).map(|k| moves[k].state.counters);
            // And one that brings a side to one counting stick from
            // winning (a teacher's trial: never said at the moment).
            let total = game.options.total_counters();
            let news: Vec<Segment> = before
                .filter(|_| how == Told::Move && !last.state.is_finished())
                .map(|before| {
                    let after = last.state.counters;
                    let near = (0..2).any(|k| after[k] + 1 == total && before[k] + 1 < total);
                    let change = lead_change_segment(
                        &game.options,
                        &game.cast,
                        audience,
                        last.n,
                        before,
                        after,
                    );
                    let near = near
                        .then(|| {
                            near_win_segment(&game.options, &game.cast, audience, last.n, after)
                        })
                        .flatten();
                    change.into_iter().chain(near).collect()
                })
                .unwrap_or_default();
            if !last.state.is_finished() {
                let awls = last.state.awls;
                // Awls that faced each other at the last paragraph's end and
                // are past each other now have passed, even when a stretch
                // took them through their meeting (a teacher's trial: "Side A
                // at 37, Side B at 16" and nothing said of the passing).
                let board = game.options.board;
                let passed_unseen = apart.is_none()
                    && facing
                    && awls_apart(&game.options, awls).is_none()
                    && !awls.contains(&1)
                    && board.physical(Side::B, awls[1]) < board.physical(Side::A, awls[0]);
                let meeting = awls_meeting_segment(
                    &game.options,
                    audience,
                    last.n,
                    awls,
                    if passed_unseen { Some(u8::MAX) } else { apart },
                );
                // The distance last said while the awls face each other
                // within a throw (a nearer one is said only as they come
                // close); none once they do not.
                let now = awls_apart(&game.options, awls);
                if meeting.is_some() || now.is_none() {
                    apart = now;
                }
                added.extend(meeting);
                // An awl on its start faces the other too: it can pass it
                // (a teacher's trial: from its start, one turn's seven
                // throws took Side B past Side A, and nothing was said).
                facing = board.physical(Side::B, awls[1]) > board.physical(Side::A, awls[0]);
                // Two awls on one number: said once while they stay there,
                // and not again within SAME_NUMBER_GAP moves (a teacher's
                // trial: at 3, at 5 and at 8 in the first six moves).
                if same != Some(awls)
                    && same_said.is_none_or(|n| last.n >= n + SAME_NUMBER_GAP)
                    && let Some(s) = same_number_segment(&game.options, audience, last.n, awls)
                {
                    added.push(s);
                    same_said = Some(last.n);
                }
                same = (awls[0] == awls[1]).then_some(awls);
                // Which awl is ahead, after a stretch, when the awls are
                // not meeting (a teacher's trial: "In front by 14 spaces"
                // then "The awls jump past each other!" mixed two ideas).
                // Not for the young (a teacher's trial: "Gone further
                // round, by 34 spaces: Side A." was heard as Side A winning,
                // which was losing on counting sticks).
                if how == Told::Stretch
                    && audience != Audience::Young
                    && added.is_empty()
                    && awls_apart(&game.options, awls).is_none()
                {
                    added.extend(lead_segment(
                        &game.options,
                        &game.cast,
                        audience,
                        last.n,
                        awls,
                    ));
                }
            }
            // A stretch's new rules, when long, in paragraphs of their own
            // before what happened in it.
            if how == Told::Skip && words(&segments) > PARAGRAPH_WORDS {
                let tail = segments.split_off(segments.len().saturating_sub(2));
                out.extend(chunks(span.start, Told::Skip, &segments));
                segments = tail;
            }
            // Where the awls stand goes with what happened: right after the
            // events, before a move's fact or odds.
            // Who leads now, right after what changed the counting
            // sticks: before the move's rules and its throw again.
            if !news.is_empty() {
                let again = [
                    RuleId::throw_table(game.options.throw_table).key(),
                    RuleId::TurnPass.key(),
                ];
                let at = segments
                    .iter()
                    .rposition(|s| {
                        s.kind == SegmentKind::Event
                            && !again.contains(&s.rule.as_deref().unwrap_or_default())
                    })
                    .map_or(segments.len(), |at| at + 1);
                segments.splice(at..at, news.iter().cloned());
            }
            let at = segments
                .iter()
                .rposition(|s| s.kind == SegmentKind::Event)
                .map_or(segments.len(), |at| at + 1);
            segments.splice(at..at, added.iter().cloned());
            if how == Told::Move {
                out.extend(lead_paragraphs(span.start, &mut segments));
            }
            let mut p = paragraph(span, how, &segments);
            p.added = news.into_iter().chain(added).map(|s| s.text).collect();
            out.push(p);
        }
    }
    out
}

/// The paragraphs that open move `i` (taken from the front of its
/// `segments`) before the one that tells what happened: what the game is,
/// on its own (framing, and the context that goes with it), and the rules
/// stated before the throw, in paragraphs of at most [`PARAGRAPH_WORDS`]
/// words, when the move's paragraph would be longer (a teacher's trial:
/// the first paragraph was 210 words).
fn lead_paragraphs(i: usize, segments: &mut Vec<Segment>) -> Vec<Paragraph> {
    let mut out = Vec::new();
    let framing = segments
        .iter()
        .take_while(|s| matches!(s.kind, SegmentKind::Framing | SegmentKind::Context))
        .count();
    if segments[..framing]
        .iter()
        .any(|s| s.kind == SegmentKind::Framing)
        && framing < segments.len()
    {
        out.extend(chunks(i, Told::Framing, &segments[..framing]));
        segments.drain(..framing);
    }
    if words(segments) <= PARAGRAPH_WORDS {
        return out;
    }
    let rules = segments
        .iter()
        .take_while(|s| s.kind == SegmentKind::Rule)
        .count();
    out.extend(chunks(i, Told::Rule, &segments[..rules]));
    segments.drain(..rules);
    out
}

/// How many words `segments` have.
fn words(segments: &[Segment]) -> usize {
    segments
        .iter()
        .map(|s| s.text.split_whitespace().count())
        .sum()
}

/// `segments` in paragraphs of at most [`PARAGRAPH_WORDS`] words each, but
/// for a single longer segment, in order.
fn chunks(i: usize, told: Told, segments: &[Segment]) -> Vec<Paragraph> {
    let mut out = Vec::new();
    let mut first = 0;
    while first < segments.len() {
        let mut end = first + 1;
        while end < segments.len() && words(&segments[first..=end]) <= PARAGRAPH_WORDS {
            end += 1;
        }
        out.push(paragraph(i..i, told, &segments[first..end]));
        first = end;
    }
    out
}

/// The words that open a rule told again in a move read aloud to the
/// young.
pub(super) const REMEMBER: &str = "Remember: ";

/// A rule of `segments` (a paragraph told `how`) that the class has heard
/// (its key in `heard`, which takes in those it states) opened with
/// [`REMEMBER`] in a move told in full (a teacher's trial: the trip
/// around, the north creek and the extra throw told again in other words,
/// heard as new rules).
fn remind(segments: &mut [Segment], how: Told, heard: &mut BTreeSet<String>) {
    for s in segments.iter_mut().filter(|s| s.kind == SegmentKind::Rule) {
        let Some(key) = &s.rule else { continue };
        if !heard.insert(key.clone()) && how == Told::Move {
            s.text = format!("{REMEMBER}{}", s.text);
        }
    }
}

/// Whether `segment` states `rule` (in full or briefly).
pub(super) fn states_rule(segment: &Segment, rule: RuleId) -> bool {
    segment.kind == SegmentKind::Rule && segment.rule.as_deref() == Some(rule.key())
}

fn paragraph(moves: Range<usize>, told: Told, segments: &[Segment]) -> Paragraph {
    let words: Vec<&str> = segments.iter().map(|s| s.text.as_str()).collect();
    Paragraph {
        moves,
        told,
        text: words.join(" "),
        added: Vec::new(),
    }
}

/// The paragraphs of the whole read-aloud form of `game` (its moves as
/// `told`, with [`told_stopped`] when stopped), and the stop's result
/// last when `stopped` (the stop's narration) is given.
pub(super) fn read_aloud(
    game: &NarratedGame,
    told: &[Narration],
    audience: Audience,
    stopped: Option<&Narration>,
    skips: &[Range<usize>],
) -> Vec<Paragraph> {
    let mut out = paragraphs(game, &told[..game.moves.len()], audience, skips);
    if let Some(stop) = stopped {
        let n = game.moves.len();
        // Its rule, told early (`told_stopped`), is not told again (a
        // teacher's trial: the class had heard it at the start).
        let stop_rule = |s: &Segment| states_rule(s, RuleId::StopMostCounters);
        let told_early = told.iter().any(|t| t.segments.iter().any(stop_rule));
        let segments: Vec<Segment> = stop
            .segments
            .iter()
            .filter(|s| !(told_early && stop_rule(s)))
            .cloned()
            .collect();
        out.push(paragraph(n..n, Told::Stop, &segments));
    }
    out
}
