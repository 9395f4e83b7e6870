//! Turns as the read-aloud form groups them: one turn's several throws,
//! and the opening told throw by throw.

use std::ops::Range;

use super::NarratedGame;
use crate::narration::{CLOSE, awls_apart};

/// The turns each side has told throw by throw before plain turns are
/// told together.
pub(super) const OPENING_TURNS: usize = 2;

/// The moves from `i` that one turn of several quiet throws spans: the
/// same seat, each throw but the last having earned the next, none but the
/// last leaving the awls within [`CLOSE`] spaces of each other (a
/// teacher's trial: an awl one space from the whip that would have won the
/// game, then jumping past, was summed up in quick turns). Empty when
/// fewer than two.
pub(super) fn chain_at(game: &NarratedGame, quiet: &[bool], i: usize) -> Range<usize> {
    let seat = game.moves[i].seat;
    let mut end = i;
    while end < game.moves.len() && quiet[end] && game.moves[end].seat == seat {
        end += 1;
        let state = &game.moves[end - 1].state;
        if !state.extra_throw || awls_apart(&game.options, state.awls).is_some_and(|d| d <= CLOSE) {
            break;
        }
    }
    if end - i < 2 { i..i } else { i..end }
}

/// The end of the opening told throw by throw (a move index): when each
/// side has had [`OPENING_TURNS`] turns (a teacher's trial: two throws,
/// then "Then 4 quick turns"), or the game's end.
pub(super) fn opening_end(game: &NarratedGame) -> usize {
    let mut turns = [0; 2];
    game.moves
        .iter()
        .position(|m| {
            if !m.state.extra_throw {
                turns[m.seat.side.index()] += 1;
            }
            turns.iter().all(|&t| t >= OPENING_TURNS)
        })
        .map_or(game.moves.len(), |i| i + 1)
}
