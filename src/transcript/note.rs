//! The read-aloud form's opening note for the teacher.

use std::fmt::Write as _;

use super::closing::spoken;
use super::read_aloud::{
    LESSON_MINUTES, Paragraph, READ_ALOUD_WORDS_A_MINUTE, SHORT_LESSON_MINUTES,
    WHOLE_MARGIN_PERCENT,
};
use super::skip::Skip;
use super::stop::stop_keep;
use super::{NarratedGame, TranscriptError, TranscriptRequest};
use crate::narration::{Audience, name_mid_sentence};
use crate::rules::Event;

/// The fewest counting sticks a side the note suggests for a shorter whole
/// game: with one, a game ends at its first fall, whip or trip around.
pub const FEWEST_COUNTING_STICKS: u8 = 2;

/// The read-aloud form's opening note for the teacher: how long this
/// game is read aloud (`paragraphs`), how long a game of its rules runs on
/// average, how to hold a long one to [`SHORT_LESSON_MINUTES`] and to
/// [`LESSON_MINUTES`] (`fits`, from [`lesson_stop`]), and, for such a
/// game, how to play it whole in less time with fewer counting sticks
/// ([`fewer_counting_sticks`]: within [`SHORT_LESSON_MINUTES`] if any
/// number does, else with the fewest), or which of its moves are told in
/// short (`skip`) and how to hear them all, and where the sources are.
///
/// # Errors
/// [`TranscriptError`] only on a defect of the rules or presets.
pub(super) fn teacher_note(
    game: &NarratedGame,
    paragraphs: &[Paragraph],
    fits: [Option<u32>; 2],
    skip: Option<&Skip>,
    audience: Audience,
    request: &TranscriptRequest,
) -> Result<String, TranscriptError> {
    let words: usize = paragraphs.iter().map(Paragraph::words).sum();
    let minutes = super::read_aloud::about_minutes(words);
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
    // Throws, as the average counts them (a teacher's trial: "129 moves"
    // beside "170 throws on average" could not be compared).
    let throws = if game.options.throw_table == crate::rules::ThrowTable::Spinner {
        "spins"
    } else {
        "throws"
    };
    let _ = write!(note, " This game has {} {throws}.", game.moves.len());
    // The counters as the young hear them on this board.
    let sticks = &crate::narration::catalogue()
        .templates
        .words
        .board(game.options.board)
        .get(Audience::Young)
        .counters;
    if let Some(skip) = skip {
        let whole = super::read_aloud::about_minutes(skip.whole_words);
        let stretches: Vec<String> = skip
            .moves
            .iter()
            .map(|m| format!("{} to {}", m.start + 1, m.end))
            .collect();
        let (stretches, paragraphs) = match stretches.split_last() {
            Some((last, [])) => (last.clone(), "one short paragraph"),
            Some((last, rest)) => (
                format!("{} and {last}", rest.join(", ")),
                "a short paragraph each",
            ),
            None => (String::new(), ""),
        };
        // Only the firsts the game has (a curator's trial: "The first
        // fall, whip and trip around" in games with no whip).
        let kinds: Vec<&str> = [
            (
                "fall",
                (|e: &Event| matches!(e, Event::FellIntoCreek { .. })) as fn(&Event) -> bool,
            ),
            ("whip", |e| matches!(e, Event::Whipped { .. })),
            ("trip around", |e| {
                matches!(e, Event::CompletedCircuit { .. })
            }),
        ]
        .into_iter()
        .filter(|(_, kind)| game.moves.iter().flat_map(|m| &m.events).any(kind))
        .map(|(name, _)| name)
        .collect();
        let firsts = match kinds.as_slice() {
            [] => String::new(),
            [one] => format!(" The first {one} is told in full as it happens."),
            [rest @ .., last] => format!(
                " The first {} and {last} are told in full as they happen.",
                rest.join(", ")
            ),
        };
        // A long stretch told as two (a teacher's trial: one paragraph
        // told 176 of 255 throws, the lead changing inside it).
        let leads = match skip.leads {
            0 => String::new(),
            1 => format!(
                " So is one turn where a side takes the lead in {sticks}, splitting a long \
                 stretch in two."
            ),
            n => format!(
                " So are {n} turns where a side takes the lead in {sticks}, each splitting a \
                 long stretch in two."
            ),
        };
        let _ = write!(
            note,
            " Told in full, it would read in about {whole} minutes, so {throws} {stretches} are \
             told in {paragraphs}: how many there are, their falls, whips and trips around, and \
             where the game then stands.{firsts}{leads} To tell every {} in full, add --minutes \
             {whole}.",
            &throws[..throws.len() - 1],
        );
    }
    // Every rule at every throw is for reference, not for a class (a
    // teacher's trial: `--detail full --read-aloud` repeated the turn's
    // rules before every throw).
    if request.detail == crate::narration::Detail::Full {
        note.push_str(
            " At --detail full every rule is stated again at every throw, for reference; for a \
             class, leave --detail out: each rule is then told when it first matters.",
        );
    }
    if request.stop_after.is_none() {
        // A whole game, with a winner, in a short lesson, offered first (a
        // teacher's trial: a whole game read aloud ran 8 to 27 minutes,
        // "only the short seeds"; the next: "lead with one clear choice").
        if fits[0].is_some()
            && request.counting_sticks.is_none()
            && let Some((n, minutes)) = fewer_counting_sticks(request, SHORT_LESSON_MINUTES, words)?
        {
            // Wikipedia's reconstruction speaks of the circle's counting
            // sticks, not of the A4 sheet's counters.
            let allowed = if game.options.board == crate::rules::Board::Circle40 {
                " (the Wikipedia article allows any even number in all)"
            } else {
                ""
            };
            let _ = write!(
                note,
                " For a whole game with a winner in less time, start each side with fewer \
                 {sticks}{allowed}: add --counting-sticks {n}, and this seed's game then reads \
                 in about {minutes} minutes."
            );
        }
        let stops: Vec<String> = [SHORT_LESSON_MINUTES, LESSON_MINUTES]
            .iter()
            .zip(fits)
            .filter_map(|(minutes, fits)| {
                fits.map(|n| {
                    // A stop with the counting sticks even is a tie (a
                    // teacher's trial: the note did not say so; the next
                    // one's: and offered no stop with a winner; the next:
                    // offer the stop with a winner first).
                    let stop = if is_tie(game, n) {
                        match (1..n)
                            .rev()
                            .take_while(|&k| k * 4 >= n * 3)
                            .find(|&k| !is_tie(game, k))
                        {
                            Some(k) => format!(
                                "{k} (it ends with a winner; --stop-after {n} fits too, but the \
                                 {sticks} are even there, a tie)"
                            ),
                            None => format!(
                                "{n} (the {sticks} are even there, so the game ends in a tie)"
                            ),
                        }
                    } else {
                        n.to_string()
                    };
                    format!("within about {minutes} minutes, add --stop-after {stop}")
                })
            })
            .collect();
        if !stops.is_empty() {
            let _ = write!(
                note,
                " To stop it {}: the side with more {sticks} then wins, as the class hears \
                 early on.",
                stops.join("; ")
            );
        }
    }
    // Where the awls are, for eyes as well as ears.
    let [a, b] = game
        .cast
        .sides
        .clone()
        .map(|s| name_mid_sentence(&s).into_owned());
    // The picture labels the counts A and B.
    let numbers = if a == "Side A" && b == "Side B" {
        format!("the numbers for {a} outside the path, for {b} inside")
    } else {
        format!("the numbers for {a} (A) outside the path, for {b} (B) inside")
    };
    let _ = match &request.board {
        Some(file) => write!(
            note,
            " The board to show the class is in {file}: {numbers}."
        ),
        None => write!(
            note,
            " To show the class the board, with {numbers}, add --board board.png."
        ),
    };
    let _ = write!(
        note,
        " The full transcript cites the sources of every sentence: `{}`.)",
        request.command()
    );
    Ok(note)
}

/// The most counting sticks a side, fewer than the preset's and at least
/// [`FEWEST_COUNTING_STICKS`], with which the game `request` asks for,
/// played whole, reads within `minutes` (or a fifth more, as a whole game
/// is offered: [`WHOLE_MARGIN_PERCENT`]), and how many minutes it then
/// reads; when no such number does, the fewest, if the game is then
/// shorter than its `whole` words and within half as long again as
/// `minutes` (a teacher's trial: "always give an N, even if the game runs
/// a little over"; the next: 18 minutes offered for a 10-minute lesson
/// "is not lesson-sized", the stop is); `None` otherwise.
///
/// # Errors
/// [`TranscriptError`] only on a defect of the rules or presets.
pub(super) fn fewer_counting_sticks(
    request: &TranscriptRequest,
    minutes: usize,
    whole: usize,
) -> Result<Option<(u8, usize)>, TranscriptError> {
    let limit = minutes * READ_ALOUD_WORDS_A_MINUTE * (100 + WHOLE_MARGIN_PERCENT) / 100;
    let usual = request.preset.options().counters_per_side;
    let mut fewest = None;
    for n in (FEWEST_COUNTING_STICKS..usual).rev() {
        let shorter = TranscriptRequest {
            counting_sticks: Some(n),
            stop_after: None,
            ..request.clone()
        };
        let (audience, detail) = (request.audience, request.detail);
        let game = super::narrated_game_of(
            &shorter.seed,
            shorter.preset,
            shorter.options(),
            audience,
            &shorter.sides,
        )?;
        let (told, chances) = super::told_moves_with_chances(&game, audience, detail)?;
        let (_, paragraphs, _) = spoken(&game, &told, &chances, audience, detail, None, None);
        let words: usize = paragraphs.iter().map(Paragraph::words).sum();
        let read = (n, super::read_aloud::about_minutes(words));
        if words <= limit {
            return Ok(Some(read));
        }
        fewest = (words < whole && read.1 <= minutes * 3 / 2).then_some(read);
    }
    Ok(fewest)
}

/// Whether `game` stopped after move `n` ends with the counting sticks
/// even: a tie.
fn is_tie(game: &NarratedGame, n: u32) -> bool {
    game.moves.get(stop_keep(game, n) - 1).is_some_and(|m| {
        let [a, b] = m.state.counters;
        a == b
    })
}

#[cfg(test)]
mod tests {
    use super::super::read_aloud::about_minutes;

    /// A teacher's trial: a read-aloud of 1,211 words, 11 minutes at 110
    /// words a minute, was "about 12 minutes" in the note (rounded up).
    #[test]
    fn regression_1211_words_were_about_12_minutes() {
        assert_eq!(about_minutes(1211), 11);
        assert_eq!(about_minutes(1264), 11);
        assert_eq!(about_minutes(1265), 12);
        assert_eq!(about_minutes(20), 1);
    }
}
