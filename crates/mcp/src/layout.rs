//! The board as plain text (`zohn-ahl://games/{id}/board.txt`): the spaces
//! in their four quarters, the creeks' banks and the dry branches marked,
//! each awl where it stands, and the counters; for a model or a reader
//! that cannot see the picture.

use super::answer::GameBrief;
use crate::rules::{Board, Side};

/// The board of a game as text, from its essentials (`game`) and its
/// board's shape.
#[must_use]
pub fn board_text(board: Board, game: &GameBrief) -> String {
    let len = board.len();
    let quarter = len / 4;
    let [first, second] = board.first_dry_branch();
    let [third, fourth] = board.second_dry_branch();
    let north = board.north_near_bank();
    // Each awl's space as side A numbers the board.
    let at = |side: Side| {
        game.sides
            .get(side.index())
            .filter(|s| (1..=len).contains(&s.space))
            .map(|s| board.physical(side, s.space) + 1)
    };
    let awls = [at(Side::A), at(Side::B)];
    let mut out = format!(
        "Board of game {} ({}): {len} spaces in four quarters of {quarter}, numbered from side A's start; side B numbers them the other way (its space n is A's {}-n).\n\
         Key: ~ a creek's bank (the south creek at {len} and 1, between the two starts; the north creek at {north} and {}), | a dry branch ({first} and {second}; {third} and {fourth}), A and B the awls.\n",
        game.game_id,
        game.preset,
        len + 1,
        north + 1,
    );
    for q in 0..4 {
        let spaces: Vec<String> = (q * quarter + 1..=(q + 1) * quarter)
            .map(|n| {
                let mut cell = format!("{n:>2}");
                if n == 1 || n == len || n == north || n == north + 1 {
                    cell.push('~');
                }
                if board.is_dry_branch(n) {
                    cell.push('|');
                }
                for (side, awl) in Side::BOTH.iter().zip(awls) {
                    if awl == Some(n) {
                        cell.push_str(if *side == Side::A { "A" } else { "B" });
                    }
                }
                cell
            })
            .collect();
        out.push_str(&format!("Quarter {}: {}\n", q + 1, spaces.join(" ")));
    }
    for (side, awl) in Side::BOTH.iter().zip(awls) {
        let Some(s) = game.sides.get(side.index()) else {
            continue;
        };
        out.push_str(&format!(
            "Side {} ({}): awl on {} (its own space {}), {} counters, {} circuits.\n",
            s.side,
            s.name,
            awl.map_or_else(|| "no space".to_owned(), |n| n.to_string()),
            s.space,
            s.counters,
            s.circuits,
        ));
    }
    out.push_str(&match (game.status.as_str(), game.winner.as_str()) {
        ("finished", "") => "The game is over: a draw.".to_owned(),
        ("finished", w) => format!("The game is over: side {w} won."),
        _ => format!(
            "Side {} to throw{}{}.",
            game.to_throw,
            if game.to_throw_player.is_empty() {
                String::new()
            } else {
                format!(" ({})", game.to_throw_player)
            },
            if game.extra_throw_pending {
                ", again"
            } else {
                ""
            },
        ),
    });
    out
}
