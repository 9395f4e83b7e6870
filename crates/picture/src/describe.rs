//! The picture in words: its `<title>` and `<desc>`, and the short lines
//! written on it. Plain English, for screen readers and for the picture's
//! own labels.

use std::fmt::Write as _;

use super::Names;
use crate::rules::{
    Bank, Board, Compass, Feature, GameState, Outcome, OwnSpace, Side, Table, ThrowTable,
};

/// The words a board uses, the narration's for the general audience (its
/// catalogue names each board's features once): Bell's torrent and dry
/// gully on the square, creek and dry branch on the circle.
#[derive(Clone, Copy, Debug)]
pub(super) struct Words {
    pub creek: &'static str,
    pub dry: &'static str,
    track: &'static str,
    spaces: u8,
}

impl Words {
    pub fn of(board: Board) -> Self {
        let words = &zohn_ahl_narration::catalogue()
            .templates
            .words
            .board(board)
            .general;
        Self {
            creek: &words.creek,
            dry: &words.dry_branch,
            track: &words.track,
            spaces: board.len(),
        }
    }

    /// The track in words: `40-space circle`.
    pub fn shape(self) -> String {
        format!("{}-space {}", self.spaces, self.track)
    }
}

/// `A` or `B`.
pub(super) const fn letter(side: Side) -> &'static str {
    match side {
        Side::A => "A",
        Side::B => "B",
    }
}

/// The shape of a side's awl, in words.
const fn awl_shape(side: Side) -> &'static str {
    match side {
        Side::A => "a red diamond marked A",
        Side::B => "a purple square marked B",
    }
}

/// Where a side starts and which way it goes.
fn course(side: Side, words: Words) -> String {
    let (numbers, turning, bank) = match side {
        Side::A => ("outer", "counter-clockwise", "east"),
        Side::B => ("inner", "clockwise", "west"),
    };
    format!(
        "counts the {numbers} numbers, from 1 on the {bank} bank of the south {} going {turning}",
        words.creek
    )
}

/// `1 counting stick`, `3 counting sticks`: what the panel draws, and
/// the record's word for the counters (a teacher's trial: the board said
/// "counters" beside a story that said "counting sticks").
pub(super) fn counters(n: u8) -> String {
    if n == 1 {
        "1 counting stick".to_owned()
    } else {
        format!("{n} counting sticks")
    }
}

/// `1 circuit`, `2 circuits`.
pub(super) fn circuits(n: u16) -> String {
    if n == 1 {
        "1 circuit".to_owned()
    } else {
        format!("{n} circuits")
    }
}

/// What the space is, for `side`, if anything: `the near bank of the north
/// creek`.
pub(super) fn feature_words(board: Board, side: Side, own: OwnSpace) -> Option<String> {
    let w = Words::of(board);
    let compass = |c| match c {
        Compass::East => "east",
        Compass::West => "west",
    };
    match board.feature(side, own) {
        Feature::Ordinary => None,
        Feature::DryBranch { compass: c } => Some(format!("the {} {}", compass(c), w.dry)),
        Feature::NorthCreek { bank: Bank::Near } => {
            Some(format!("the near bank of the north {}", w.creek))
        }
        Feature::NorthCreek { bank: Bank::Far } => {
            Some(format!("the far bank of the north {}", w.creek))
        }
        Feature::SouthCreek { bank: Bank::Far } => {
            let bank = match side {
                Side::A => "east",
                Side::B => "west",
            };
            Some(format!(
                "its start, the {bank} bank of the south {}",
                w.creek
            ))
        }
        Feature::SouthCreek { bank: Bank::Near } => Some(format!(
            "the near bank of the south {}, side {}'s start",
            w.creek,
            letter(side.other())
        )),
    }
}

/// The seat to throw next, by name.
pub(super) fn thrower<'a>(table: &Table, state: &GameState, names: &Names<'a>) -> &'a str {
    let seat = state.to_throw(table);
    names.players[seat.side.index()]
        .get(usize::from(seat.player))
        .map_or(names.sides[seat.side.index()], String::as_str)
}

/// The big line at the centre, as who and what: `("Ama", "to throw
/// next")`, `("Ama", "won")`, `("A draw", "")`; and the side it is about.
/// Verb forms that agree with a singular or a plural name (a side's name
/// stands for an unnamed player, and a team's name may be plural).
pub(super) fn headline(
    table: &Table,
    state: &GameState,
    names: &Names<'_>,
) -> (String, &'static str, Side) {
    match state.outcome {
        Some(Outcome::Won { side }) => (names.sides[side.index()].to_owned(), "won", side),
        Some(Outcome::Draw) => ("A draw".to_owned(), "", table.first()),
        None => {
            let side = state.to_throw(table).side;
            // A spinner is spun, not thrown (a teacher's trial: "to throw
            // next" on the A4 board).
            let verb = match (table.options().throw_table, state.extra_throw) {
                (ThrowTable::Spinner, true) => "to spin again",
                (ThrowTable::Spinner, false) => "to spin next",
                (_, true) => "to throw again",
                (_, false) => "to throw next",
            };
            (thrower(table, state, names).to_owned(), verb, side)
        }
    }
}

/// `after 12 throws`, `before the first throw`.
pub(super) fn progress(state: &GameState) -> String {
    match state.throws {
        0 => "before the first throw".to_owned(),
        1 => "after 1 throw".to_owned(),
        n => format!("after {n} throws"),
    }
}

/// The `<title>` of a game's picture.
pub(super) fn game_title(table: &Table, state: &GameState, names: &Names<'_>) -> String {
    let [a, b] = names.sides;
    let when = match state.outcome {
        Some(_) => format!("finished {}", progress(state)),
        None => progress(state),
    };
    let shape = Words::of(table.options().board).shape();
    format!("Zohn Ahl on the {shape}: {a} (side A) and {b} (side B), {when}")
}

/// The `<desc>` of a game's picture: every side's awl, counters and
/// circuits, and whose turn it is or who won.
pub(super) fn game_desc(table: &Table, state: &GameState, names: &Names<'_>) -> String {
    let board = table.options().board;
    let words = Words::of(board);
    let mut out = format!("Zohn Ahl on the {}, {}.", words.shape(), progress(state));
    for side in Side::BOTH {
        let name = names.sides[side.index()];
        let _ = write!(
            out,
            " Side {}, {name}: its awl is {}; it {}.",
            letter(side),
            awl_shape(side),
            course(side, words)
        );
    }
    for side in Side::BOTH {
        let name = names.sides[side.index()];
        let own = state.awl(side);
        let other = board.mirror(own);
        let (mine, theirs) = (letter(side), letter(side.other()));
        let place = match feature_words(board, side, own) {
            Some(f) => format!(", {f}"),
            None => String::new(),
        };
        let _ = write!(
            out,
            " The awl of {name} is on space {own} of {mine}'s count (space {other} of {theirs}'s){place}."
        );
    }
    for side in Side::BOTH {
        let name = names.sides[side.index()];
        // A side's name is never a verb's subject: a team's may be plural.
        let _ = write!(out, " {name}: {}", counters(state.counters(side)));
        let c = state.circuits[side.index()];
        if c > 0 {
            let _ = write!(out, ", {} completed", circuits(c));
        }
        out.push('.');
    }
    match state.outcome {
        Some(Outcome::Won { side }) => {
            let _ = write!(out, " The game is over: {} won.", names.sides[side.index()]);
        }
        Some(Outcome::Draw) => out.push_str(" The game is over: a draw."),
        None => {
            let seat = state.to_throw(table);
            let who = thrower(table, state, names);
            let side_name = names.sides[seat.side.index()];
            let when = if state.extra_throw { "again" } else { "next" };
            let verb = if table.options().throw_table == ThrowTable::Spinner {
                "spin"
            } else {
                "throw"
            };
            if who == side_name {
                let _ = write!(out, " {who} to {verb} {when}.");
            } else {
                let _ = write!(out, " {who} to {verb} {when}, for {side_name}.");
            }
            for side in Side::BOTH {
                if state.forfeits[side.index()] {
                    let _ = write!(
                        out,
                        " The next throw of {} is lost.",
                        names.sides[side.index()]
                    );
                }
            }
        }
    }
    out
}

/// The `<title>` of the empty board.
pub(super) fn empty_title(board: Board) -> String {
    format!(
        "Zohn Ahl: the empty {} with both sides' numbers",
        Words::of(board).shape()
    )
}

/// The `<desc>` of the empty board: both numberings and where each feature
/// lies in each.
pub(super) fn empty_desc(board: Board) -> String {
    let words = Words::of(board);
    let len = board.len();
    let mut out = format!(
        "The empty Zohn Ahl board, the {}, with both sides' numbers on every space.",
        words.shape()
    );
    for side in Side::BOTH {
        let _ = write!(
            out,
            " Side {} {}, to {len}.",
            letter(side),
            course(side, words)
        );
    }
    let _ = write!(
        out,
        " On every space A's number and B's number add up to {}.",
        u16::from(len) + 1
    );
    let [d1, d2] = board.first_dry_branch();
    let [d3, d4] = board.second_dry_branch();
    let n = board.north_near_bank();
    let m = |k| board.mirror(k);
    let _ = write!(
        out,
        " The south {c} runs between A's {len} and A's 1 (B's 1 and B's {len}), the two starts. \
         The east {d} is A's {d1} and {d2} (B's {} and {}). \
         The north {c} runs between A's {n} and {} (B's {} and {}). \
         The west {d} is A's {d3} and {d4} (B's {} and {}).",
        m(d1),
        m(d2),
        n + 1,
        m(n),
        m(n + 1),
        m(d3),
        m(d4),
        c = words.creek,
        d = words.dry,
    );
    out
}
