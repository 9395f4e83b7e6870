//! How a game read aloud differs from its moves as told: fewer changes of
//! the chance to win for the young, and the questions it ends with.

use std::ops::Range;

use super::NarratedGame;
use super::read_aloud::{Paragraph, READ_ALOUD_WORDS_A_MINUTE, Told, WHOLE_MARGIN_PERCENT};
use super::skip::{SPLIT_MARGIN_PERCENT, Skip, defer_rules, lead_turn, skip_ranges};
use crate::narration::{
    Audience, CLOSE, Chances, Detail, Narration, SegmentKind, awls_apart, chance_meaning,
    looking_back,
};
use crate::rules::Outcome;

/// The most changes of the chance to win a young class hears in a game
/// read aloud (teachers' trials: about six a game, then five, were heavy
/// for 9-year-olds; one of them can be talked through).
pub const YOUNG_ODDS_READ_ALOUD: usize = 2;

/// `told` as read aloud to `audience`: for the young, only the first
/// [`YOUNG_ODDS_READ_ALOUD`] sentences on a change of the chance to win;
/// for everyone, the first of them followed by what a chance to win
/// counts ([`chance_meaning`]).
fn fewer_chances(game: &NarratedGame, told: &[Narration], audience: Audience) -> Vec<Narration> {
    let mut told = told.to_vec();
    if let Some(first) = told
        .iter_mut()
        .flat_map(|t| t.segments.iter_mut())
        .find(|s| s.kind == SegmentKind::Odds)
    {
        first.text = format!("{} {}", first.text, chance_meaning(&game.options, audience));
    }
    if audience == Audience::Young {
        let mut said = 0;
        for t in &mut told {
            t.segments.retain(|s| {
                if s.kind != SegmentKind::Odds {
                    return true;
                }
                said += 1;
                said <= YOUNG_ODDS_READ_ALOUD
            });
        }
    }
    told
}

/// The moves before a game's last in which a game read aloud tells no
/// fact ([`quiet_ending`]).
pub const QUIET_ENDING: usize = 20;

/// `told` (`game`'s moves, as read aloud) with no fact in the
/// [`QUIET_ENDING`] moves before its last, after its first (a teacher's
/// trial: a fact on the awl stone, with Side B one counting stick from
/// winning; another three turns from the end), nor at a tense moment
/// ([`tense`]) (the next: a fact on an 1898 book right after "The two
/// awls are 1 space apart"). The last move's fact, after the winner is
/// told, stays.
pub(super) fn quiet_ending(game: &NarratedGame, told: &mut [Narration]) {
    let n = told.len();
    let from = n.saturating_sub(1 + QUIET_ENDING).max(1);
    for (i, t) in told.iter_mut().enumerate().take(n.saturating_sub(1)) {
        if i >= from || tense(game, i) {
            t.segments.retain(|s| s.kind != SegmentKind::Context);
        }
    }
}

/// Whether move `i` of `game` leaves it tense, and not won: the awls
/// facing each other within [`CLOSE`] spaces, or a side one counting
/// stick from winning.
pub(super) fn tense(game: &NarratedGame, i: usize) -> bool {
    let state = &game.moves[i].state;
    let total = game.options.total_counters();
    !state.is_finished()
        && (awls_apart(&game.options, state.awls).is_some_and(|d| d <= CLOSE)
            || state.counters.iter().any(|&c| c + 1 == total))
}

/// `game` read aloud whole to `audience` at `detail`: its moves (`told`,
/// their chances `chances`) with [`fewer_chances`], in paragraphs, with
/// the stop's words (`stopped`) and the closing questions; and the moves
/// as read, which a stop for a lesson is found in. Given `minutes`, a game
/// that would read longer has stretches told in short ([`Skip`]). One
/// pipeline for the transcript and for the note's shorter game.
pub(super) fn spoken(
    game: &NarratedGame,
    told: &[Narration],
    chances: &[Option<Chances>],
    audience: Audience,
    detail: Detail,
    stopped: Option<&Narration>,
    minutes: Option<usize>,
) -> (Vec<Narration>, Vec<Paragraph>, Option<Skip>) {
    let looking = closing(game, chances, audience, detail);
    let read = |skips: &[Range<usize>]| {
        let mut told = told.to_vec();
        // A chance to win told in a stretch told in short is not heard:
        // the first one heard says what a chance counts.
        for skip in skips {
            for t in &mut told[skip.clone()] {
                t.segments.retain(|s| s.kind != SegmentKind::Odds);
            }
        }
        defer_rules(game, &mut told, skips);
        // A game stopped for a lesson reads as the whole game does up to
        // its stop.
        if stopped.is_none() {
            quiet_ending(game, &mut told);
        }
        let told = fewer_chances(game, &told, audience);
        let mut paragraphs = super::read_aloud::read_aloud(game, &told, audience, stopped, skips);
        paragraphs.extend(closing_paragraphs(game, looking.clone()));
        (told, paragraphs)
    };
    let (whole_told, whole) = read(&[]);
    let Some(minutes) = minutes else {
        return (whole_told, whole, None);
    };
    let whole_words: usize = whole.iter().map(Paragraph::words).sum();
    let budget = minutes * READ_ALOUD_WORDS_A_MINUTE;
    let mut spare = 0;
    let mut best = None;
    // A first try reckons the stretches' words; a longer one than
    // reckoned takes the excess off the opening and the ending.
    for _ in 0..5 {
        let moves = skip_ranges(game, &whole, minutes, spare);
        if moves.is_empty() {
            // A middle too short to tell in short, in a game that reads
            // long: the opening and the ending take less (an a4 game read
            // whole in 13 minutes).
            if whole_words > budget * (100 + WHOLE_MARGIN_PERCENT) / 100 {
                spare += budget / 10;
                continue;
            }
            break;
        }
        let (told, paragraphs) = read(&moves);
        let words: usize = paragraphs.iter().map(Paragraph::words).sum();
        best = Some((
            told,
            paragraphs,
            Skip {
                moves,
                whole_words,
                leads: 0,
            },
        ));
        if words <= budget {
            break;
        }
        spare += words - budget;
    }
    // A long stretch told as two, the turn where a side takes the lead
    // told in full between, the longest first, while the game reads
    // within a tenth more than `minutes`.
    if let Some((_, _, skip)) = &best {
        let limit = budget * (100 + SPLIT_MARGIN_PERCENT) / 100;
        let mut moves = skip.moves.clone();
        let mut leads = 0;
        loop {
            let mut order: Vec<usize> = (0..moves.len()).collect();
            order.sort_by_key(|&k| std::cmp::Reverse(moves[k].len()));
            let Some((k, turn)) = order
                .into_iter()
                .find_map(|k| lead_turn(game, &moves[k]).map(|turn| (k, turn)))
            else {
                break;
            };
            let mut split = moves.clone();
            let stretch = split[k].clone();
            split.splice(k..=k, [stretch.start..turn.start, turn.end..stretch.end]);
            let (told, paragraphs) = read(&split);
            if paragraphs.iter().map(Paragraph::words).sum::<usize>() > limit {
                break;
            }
            moves = split;
            leads += 1;
            let skip = Skip {
                moves: moves.clone(),
                whole_words,
                leads,
            };
            best = Some((told, paragraphs, skip));
        }
    }
    match best {
        Some((told, paragraphs, skip)) => (told, paragraphs, Some(skip)),
        None => (whole_told, whole, None),
    }
}

/// The words a game ends with ([`crate::narration::looking_back`]): a
/// paragraph each, with what says its numbers.
pub type Closing = Vec<(String, Vec<crate::narration::Citation>)>;

/// The paragraphs that end a game read aloud: `looking` (the closing's
/// words, from the recap's questions), one a paragraph, after its last
/// move.
fn closing_paragraphs(game: &NarratedGame, looking: Closing) -> Vec<Paragraph> {
    let n = game.moves.len();
    looking
        .into_iter()
        .map(|(text, _)| Paragraph {
            moves: n..n,
            told: Told::LookingBack,
            text,
            added: Vec::new(),
        })
        .collect()
}

/// The questions `game` (its moves' chances `chances`, move 1 first) ends
/// with for `audience` ([`looking_back`]): its numbers as the service's
/// recap finds them, the game stopped or played out. Empty at the `brief`
/// detail (a caption's length), and for a game with nothing to look back
/// on.
pub(super) fn closing(
    game: &NarratedGame,
    chances: &[Option<Chances>],
    audience: Audience,
    detail: Detail,
) -> Closing {
    let (Some(last), Ok(table)) = (game.moves.last(), game.table()) else {
        return Vec::new();
    };
    if detail == Detail::Brief {
        return Vec::new();
    }
    // A game still in play here was stopped after its last move.
    let (end, stopped) = match last.state.outcome {
        Some(_) => (last.state.outcome, false),
        None => (
            crate::rules::stop(&last.state)
                .ok()
                .and_then(|(state, _)| state.outcome),
            true,
        ),
    };
    let winner = match end {
        Some(Outcome::Won { side }) => Some(side),
        _ => None,
    };
    let series: Option<Vec<Chances>> = chances.iter().take(game.moves.len()).copied().collect();
    let throws = u32::try_from(game.moves.len()).unwrap_or(u32::MAX);
    let facts = crate::service::recap_facts(
        &table,
        &game.moves,
        series.as_deref(),
        (throws, winner, stopped),
    );
    looking_back(&facts, &game.options, &game.cast, audience)
}
