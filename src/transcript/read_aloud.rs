//! The read-aloud form: its paragraphs (moves told one by one, plain turns
//! and one turn's several throws told together, where the awls stand), the
//! note for the teacher that opens it, and a game stopped as a teacher
//! stops one (`--stop-after`), with the stop's rule told at the start.

use std::fmt::Write as _;
use std::ops::Range;

use super::{NarratedGame, TranscriptRequest};
use crate::narration::{
    Audience, ChainThrow, Narration, RuleId, STRETCH_MAX, STRETCH_MIN, Segment, SegmentKind,
    StretchThrow, awls_apart, awls_meeting_segment, is_quiet_move, narrate_chain, narrate_stretch,
    rule_statement, same_number_segment,
};

/// A pace for reading a lesson aloud to a class that stops to react, for
/// the read-aloud form's estimate of its length (a teacher's trial: a
/// class makes 130 words a minute nearer 100).
pub const READ_ALOUD_WORDS_A_MINUTE: usize = 110;

/// The lesson the read-aloud form's note fits a long game to, in minutes.
pub const LESSON_MINUTES: usize = 20;

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
    /// A rule, told before the moves it will decide.
    Rule,
    /// The stopped game's result.
    Stop,
}

/// One paragraph of the read-aloud form.
#[derive(Clone, Debug)]
pub(super) struct Paragraph {
    /// The moves it tells (indices into the game's moves).
    pub moves: Range<usize>,
    /// How.
    pub told: Told,
    /// Its words.
    pub text: String,
    /// The sentences on where the awls stand that it adds to the moves'
    /// own words (how far apart they face each other, the same number on
    /// different spaces).
    pub added: Vec<String>,
}

impl Paragraph {
    fn words(&self) -> usize {
        self.text.split_whitespace().count()
    }
}

/// The moves from `i` that one turn of several quiet throws spans: the
/// same seat, each throw but the last having earned the next. Empty when
/// fewer than two.
fn chain_at(game: &NarratedGame, quiet: &[bool], i: usize) -> Range<usize> {
    let seat = game.moves[i].seat;
    let mut end = i;
    while end < game.moves.len() && quiet[end] && game.moves[end].seat == seat {
        end += 1;
        if !game.moves[end - 1].state.extra_throw {
            break;
        }
    }
    if end - i < 2 { i..i } else { i..end }
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
pub(super) fn paragraphs(
    game: &NarratedGame,
    told: &[Narration],
    audience: Audience,
) -> Vec<Paragraph> {
    let moves = &game.moves;
    let quiet: Vec<bool> = moves
        .iter()
        .zip(told)
        .map(|(m, t)| is_quiet_move(&m.events, &t.segments))
        .collect();
    // Plain: quiet and a whole turn (`is_plain_move`).
    let plain: Vec<bool> = moves
        .iter()
        .zip(&quiet)
        .map(|(m, quiet)| *quiet && !m.state.extra_throw)
        .collect();
    let mut out: Vec<Paragraph> = Vec::new();
    let mut apart = None;
    let mut i = 0;
    while i < moves.len() {
        let run = plain[i..].iter().take_while(|p| **p).count();
        let chain = chain_at(game, &quiet, i);
        // Each paragraph's moves, how they are told, and its segments.
        let mut said: Vec<(Range<usize>, Told, Vec<Segment>)> = Vec::new();
        if run >= STRETCH_MIN {
            // A long run in even parts, none longer than STRETCH_MAX.
            let parts = run.div_ceil(STRETCH_MAX);
            let mut first = i;
            for part in 0..parts {
                let len = run / parts + usize::from(part < run % parts);
                let span = &moves[first..first + len];
                let throws: Vec<StretchThrow> = span
                    .iter()
                    .map(|m| StretchThrow {
                        side: m.seat.side,
                        value: m.score.value,
                    })
                    .collect();
                let stretch = narrate_stretch(
                    &game.options,
                    &game.cast,
                    audience,
                    span[0].n,
                    &throws,
                    span[len - 1].state.awls,
                );
                said.push((first..first + len, Told::Stretch, stretch.segments));
                first += len;
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
            let last = &moves[i - 1];
            let mut added = Vec::new();
            if !last.state.is_finished() {
                let awls = last.state.awls;
                added.extend(
                    [
                        awls_meeting_segment(&game.options, audience, last.n, awls, apart),
                        same_number_segment(&game.options, audience, last.n, awls),
                    ]
                    .into_iter()
                    .flatten(),
                );
                apart = awls_apart(&game.options, awls);
            }
            // Where the awls stand goes with what happened: right after the
            // events, before a move's fact or odds.
            let at = segments
                .iter()
                .rposition(|s| s.kind == SegmentKind::Event)
                .map_or(segments.len(), |at| at + 1);
            segments.splice(at..at, added.iter().cloned());
            let mut p = paragraph(span, how, &segments);
            p.added = added.into_iter().map(|s| s.text).collect();
            out.push(p);
        }
    }
    out
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
/// `told`), stopped after its moves when `stopped` (the stop's narration)
/// is given: then the stop's rule is told early, right after the counting
/// sticks' rule (a teacher's trial: told after the first move, it came
/// before the class knew what counting sticks were), so that the class
/// knows from the start how the game will end.
pub(super) fn read_aloud(
    game: &NarratedGame,
    told: &[Narration],
    audience: Audience,
    stopped: Option<&Narration>,
) -> Vec<Paragraph> {
    let mut out = paragraphs(game, &told[..game.moves.len()], audience);
    if let Some(stop) = stopped {
        if let Some((text, _)) = rule_statement(&game.options, audience, RuleId::StopMostCounters) {
            let counters = RuleId::counters(game.options.end_check).key();
            let states_counters = |p: &Paragraph| {
                p.told == Told::Move
                    && told[p.moves.start]
                        .segments
                        .iter()
                        .any(|s| s.kind == SegmentKind::Rule && s.rule.as_deref() == Some(counters))
            };
            let at = out
                .iter()
                .position(states_counters)
                .map_or(usize::from(!out.is_empty()), |i| i + 1);
            out.insert(
                at,
                Paragraph {
                    moves: 1..1,
                    told: Told::Rule,
                    text,
                    added: Vec::new(),
                },
            );
        }
        let n = game.moves.len();
        out.push(paragraph(n..n, Told::Stop, &stop.segments));
    }
    out
}

/// The `--stop-after` that holds `game` (its moves as `told`) to
/// `minutes` read aloud, checked by telling it so; `None` when the whole
/// game fits.
pub(super) fn lesson_stop(
    game: &NarratedGame,
    told: &[Narration],
    audience: Audience,
    minutes: usize,
) -> Option<u32> {
    let budget = minutes * READ_ALOUD_WORDS_A_MINUTE;
    let count = |ps: &[Paragraph]| ps.iter().map(Paragraph::words).sum::<usize>();
    let whole = read_aloud(game, told, audience, None);
    if count(&whole) <= budget {
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
        if count(&read_aloud(&stopped, told, audience, stop.as_ref())) <= budget {
            break;
        }
        n -= 1;
    }
    u32::try_from(n).ok()
}

/// The read-aloud form's opening note for the teacher: how long this
/// game is read aloud (`paragraphs`), how long a game of its rules runs on
/// average, how to hold a long one to [`SHORT_LESSON_MINUTES`] and to
/// [`LESSON_MINUTES`] (`fits`, from [`lesson_stop`]), and where the sources
/// are.
pub(super) fn teacher_note(
    game: &NarratedGame,
    paragraphs: &[Paragraph],
    fits: [Option<u32>; 2],
    audience: Audience,
    request: &TranscriptRequest,
) -> String {
    let words: usize = paragraphs.iter().map(Paragraph::words).sum();
    let minutes = words.div_ceil(READ_ALOUD_WORDS_A_MINUTE).max(1);
    let mut note = format!(
        "(For the teacher, not to be read aloud: {words} words, about {minutes} minutes at \
         {READ_ALOUD_WORDS_A_MINUTE} words a minute, a class's pace."
    );
    // The young framing leaves the average length to the teacher.
    if audience == Audience::Young
        && let Some(length) = crate::narration::game_length(&game.options, Audience::General)
    {
        let _ = write!(note, " {}", length.text);
    }
    let _ = write!(note, " This game has {} moves.", game.moves.len());
    if request.stop_after.is_none() {
        let stops: Vec<String> = [SHORT_LESSON_MINUTES, LESSON_MINUTES]
            .iter()
            .zip(fits)
            .filter_map(|(minutes, fits)| {
                fits.map(|n| format!("within about {minutes} minutes, add --stop-after {n}"))
            })
            .collect();
        if !stops.is_empty() {
            let _ = write!(
                note,
                " To stop it {}: the side with more counting sticks then wins, as the class \
                 hears early on.",
                stops.join("; ")
            );
        }
    }
    let _ = write!(
        note,
        " The full transcript cites the sources of every sentence: `{}`.)",
        request.command()
    );
    note
}

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
