//! How the states of a table are numbered in the full state box.

use crate::rules::{DryBranch, GameState, Table};

/// How states are numbered in the full state box.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    pub(super) len: usize,
    pub(super) total: u8,
    pub(super) counters: usize,
    pub(super) circuits_to_win: Option<u16>,
    pub(super) circuits: usize,
    pub(super) forfeits: usize,
    pub(super) turns: usize,
}

impl Layout {
    pub(super) fn new(table: &Table) -> Self {
        let o = table.options();
        let k = o.circuits_to_win.map(u16::from);
        Self {
            len: usize::from(o.board.len()),
            total: o.total_counters(),
            counters: usize::from(o.total_counters()) + 1,
            circuits_to_win: k,
            circuits: k.map_or(1, |k| usize::from(k) * usize::from(k)),
            forfeits: if o.dry_branch == DryBranch::LoseThrow {
                4
            } else {
                1
            },
            turns: table.round_len(),
        }
    }

    pub(super) fn size(&self) -> u64 {
        [
            self.len,
            self.len,
            self.counters,
            self.circuits,
            self.forfeits,
            self.turns,
        ]
        .iter()
        .map(|&d| d as u64)
        .product()
    }

    /// The box index of a state; `None` for a state outside the box (a
    /// finished game, or one the table cannot produce).
    pub(super) fn encode(&self, s: &GameState) -> Option<usize> {
        if s.is_finished() {
            return None;
        }
        let [a, b] = s.awls.map(usize::from);
        let ca = usize::from(s.counters[0]);
        let circ = match self.circuits_to_win {
            Some(k) => {
                let [x, y] = s.circuits;
                if x >= k || y >= k {
                    return None;
                }
                usize::from(x) * usize::from(k) + usize::from(y)
            }
            None => 0,
        };
        let forf = if self.forfeits == 4 {
            usize::from(s.forfeits[0]) + 2 * usize::from(s.forfeits[1])
        } else {
            0
        };
        let turn = usize::from(s.turn);
        let valid = (1..=self.len).contains(&a)
            && (1..=self.len).contains(&b)
            && ca < self.counters
            && s.counters[0] + s.counters[1] == self.total
            && turn < self.turns
            && (self.forfeits == 4 || s.forfeits == [false, false]);
        if !valid {
            return None;
        }
        let i = ((((turn * self.forfeits + forf) * self.circuits + circ) * self.counters + ca)
            * self.len
            + (a - 1))
            * self.len
            + (b - 1);
        Some(i)
    }

    /// The state at box index `i` (no extra throw pending, no throws
    /// counted).
    pub(super) fn decode(&self, mut i: usize) -> GameState {
        let b = i % self.len + 1;
        i /= self.len;
        let a = i % self.len + 1;
        i /= self.len;
        let ca = i % self.counters;
        i /= self.counters;
        let circ = i % self.circuits;
        i /= self.circuits;
        let forf = i % self.forfeits;
        let turn = i / self.forfeits;
        let circuits = match self.circuits_to_win {
            // circ < k * k <= 100, so both fit.
            Some(k) => [
                (circ / usize::from(k)) as u16,
                (circ % usize::from(k)) as u16,
            ],
            None => [0, 0],
        };
        // Every field is bounded by the layout (len <= 40, counters <= 31,
        // turns <= 112), so the casts are exact.
        GameState {
            awls: [a as u8, b as u8],
            counters: [ca as u8, self.total - ca as u8],
            circuits,
            turn: turn as u16,
            extra_throw: false,
            forfeits: [forf & 1 == 1, forf & 2 == 2],
            throws: 0,
            outcome: None,
        }
    }

    /// How near the end of the game a state is by counters (the fewest
    /// either side needs to win): smaller is nearer. Within a component
    /// the circuits are fixed (they only grow), so this is the layer of a
    /// state within its component.
    pub(super) fn counters_to_finish(&self, s: &GameState) -> u8 {
        let ca = s.counters[0];
        ca.min(self.total - ca)
    }
}
