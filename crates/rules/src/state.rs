//! The table a game is played at and the state of play.

use serde::{Deserialize, Serialize};

use super::board::{OwnSpace, Side};
use super::options::{OptionError, Options, TurnOrder};

/// One player's place: her side and her index within the side's team
/// (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seat {
    /// Her side.
    pub side: Side,
    /// Her index in the side's team, `0..players`.
    pub player: u8,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    /// One side won.
    Won {
        /// The winner.
        side: Side,
    },
    /// Stopped with equal counters (the A4 sheet's stopped-game rule).
    Draw,
}

/// A table that cannot be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// An option out of bounds.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// A side with no players, or more than [`Table::MAX_PLAYERS`].
    #[error("each side needs from 1 to {max} players, side {side:?} has {got}")]
    Players {
        /// The side at fault.
        side: Side,
        /// Its player count.
        got: usize,
        /// The bound.
        max: u8,
    },
}

/// What stays fixed for a whole game: the options, the team sizes and which
/// side throws first. Built only through [`Table::new`], which validates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    options: Options,
    players: [u8; 2],
    first: Side,
}

impl Table {
    /// Most players on one side.
    pub const MAX_PLAYERS: u8 = 8;

    /// A validated table.
    ///
    /// # Errors
    /// [`SetupError`] for an option out of bounds or a side with no players
    /// or more than [`Table::MAX_PLAYERS`].
    pub fn new(options: Options, players: [usize; 2], first: Side) -> Result<Self, SetupError> {
        options.validate()?;
        let mut counts = [0u8; 2];
        for side in Side::BOTH {
            let got = players[side.index()];
            counts[side.index()] = u8::try_from(got)
                .ok()
                .filter(|n| (1..=Self::MAX_PLAYERS).contains(n))
                .ok_or(SetupError::Players {
                    side,
                    got,
                    max: Self::MAX_PLAYERS,
                })?;
        }
        Ok(Self {
            options,
            players: counts,
            first,
        })
    }

    /// The resolved options.
    #[must_use]
    #[inline]
    pub const fn options(&self) -> &Options {
        &self.options
    }

    /// Players on `side`.
    #[must_use]
    pub const fn players(&self, side: Side) -> u8 {
        self.players[side.index()]
    }

    /// The side that throws first.
    #[must_use]
    pub const fn first(&self) -> Side {
        self.first
    }

    /// Turns in one full round of the turn order.
    ///
    /// `alternate` needs `2 × lcm(a, b)` turns before both teams are back at
    /// their first player together (2 against 3: 12 turns); a shorter round
    /// would restart a team in the middle of its rotation.
    #[must_use]
    #[inline]
    pub fn round_len(&self) -> usize {
        let [a, b] = self.players.map(usize::from);
        match self.options.turn_order {
            TurnOrder::SideBlocks => a + b,
            TurnOrder::Alternate => 2 * lcm(a, b),
        }
    }

    /// The seat whose turn is at index `turn` of the round (taken modulo
    /// [`Table::round_len`]).
    ///
    /// `side_blocks`: the first side's players in order, then the other
    /// side's. `alternate`: first side's player 1, other side's player 1,
    /// first side's player 2, ...; the smaller team starts over when it runs
    /// out of players.
    #[must_use]
    // Always inlined: `play_into` asks it twice a throw, and as a call it
    // took about 6 % of a simulated throw.
    #[inline(always)]
    pub fn seat(&self, turn: usize) -> Seat {
        let round = self.round_len();
        let turn = if turn < round { turn } else { turn % round };
        let first = self.first;
        let second = first.other();
        let n_first = usize::from(self.players(first));
        let n_second = usize::from(self.players(second));
        let (side, player) = match self.options.turn_order {
            TurnOrder::SideBlocks if turn < n_first => (first, turn),
            TurnOrder::SideBlocks => (second, turn - n_first),
            TurnOrder::Alternate if turn.is_multiple_of(2) => (first, (turn / 2) % n_first),
            TurnOrder::Alternate => (second, (turn / 2) % n_second),
        };
        Seat {
            side,
            // Bounded by MAX_PLAYERS, so it fits.
            player: player as u8,
        }
    }
}

/// Least common multiple of two team sizes (both at least 1).
const fn lcm(a: usize, b: usize) -> usize {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}

/// The state of play between two throws.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameState {
    /// Each side's awl, in its own numbering `1..=L` (A first).
    pub awls: [OwnSpace; 2],
    /// Counters each side holds (A first); their sum never changes.
    pub counters: [u8; 2],
    /// Circuits each side has completed.
    pub circuits: [u16; 2],
    /// Index of the current turn in the table's round (see [`Table::seat`]).
    pub turn: u16,
    /// Whether the side to move is throwing again after a throw that said so.
    pub extra_throw: bool,
    /// Sides that must forfeit their next turn (`dry_branch: lose_throw`).
    pub forfeits: [bool; 2],
    /// Throws played so far (forced passes included).
    pub throws: u32,
    /// `Some` once the game is over.
    pub outcome: Option<Outcome>,
}

impl GameState {
    /// The opening state: both awls on their own space 1, counters shared
    /// equally, the first side's first player to throw.
    #[must_use]
    pub fn new(table: &Table) -> Self {
        let c = table.options().counters_per_side;
        Self {
            awls: [1, 1],
            counters: [c, c],
            circuits: [0, 0],
            turn: 0,
            extra_throw: false,
            forfeits: [false, false],
            throws: 0,
            outcome: None,
        }
    }

    /// The seat that throws next.
    #[must_use]
    #[inline]
    pub fn to_throw(&self, table: &Table) -> Seat {
        table.seat(usize::from(self.turn))
    }

    /// Whether the game is over.
    #[must_use]
    #[inline]
    pub const fn is_finished(&self) -> bool {
        self.outcome.is_some()
    }

    /// The awl of `side`, in its own numbering.
    #[must_use]
    #[inline]
    pub const fn awl(&self, side: Side) -> OwnSpace {
        self.awls[side.index()]
    }

    /// Counters held by `side`.
    #[must_use]
    #[inline]
    pub const fn counters(&self, side: Side) -> u8 {
        self.counters[side.index()]
    }
}
