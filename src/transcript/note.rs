//! The read-aloud form's opening note for the teacher.

use std::fmt::Write as _;

use super::read_aloud::{
    LESSON_MINUTES, Paragraph, READ_ALOUD_WORDS_A_MINUTE, SHORT_LESSON_MINUTES, stop_keep,
};
use super::{NarratedGame, TranscriptRequest};
use crate::narration::{Audience, name_mid_sentence};

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
                fits.map(|n| {
                    // A stop with the counting sticks even is a tie (a
                    // teacher's trial: the note did not say so; the next
                    // one's: and offered no stop with a winner).
                    let tie = if is_tie(game, n) {
                        match (1..n)
                            .rev()
                            .take_while(|&k| k * 4 >= n * 3)
                            .find(|&k| !is_tie(game, k))
                        {
                            Some(k) => format!(
                                " (the counting sticks are even there, so the game ends in a \
                                 tie; --stop-after {k} ends it with a winner)"
                            ),
                            None => " (the counting sticks are even there, so the game ends \
                                     in a tie)"
                                .to_owned(),
                        }
                    } else {
                        String::new()
                    };
                    format!("within about {minutes} minutes, add --stop-after {n}{tie}")
                })
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
    note
}

/// Whether `game` stopped after move `n` ends with the counting sticks
/// even: a tie.
fn is_tie(game: &NarratedGame, n: u32) -> bool {
    game.moves.get(stop_keep(game, n) - 1).is_some_and(|m| {
        let [a, b] = m.state.counters;
        a == b
    })
}
