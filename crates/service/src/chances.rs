//! Each move's chances of winning, before it and after it: looked up in the
//! ruleset's solved chain (the odds service's, [`Solver`]), never solved
//! for a move. Nothing is stored: the state after a move is in its record,
//! and the state before it is found again from the record (its throw, its
//! events and the state it left), checked by playing the throw on it.
//!
//! Every surface that shows a move (a throw's answer, the move log, one
//! move, the live feed, the MCP tools) gets its [`ChanceTable`] once per
//! request: [`ChanceTable::ready`] waits for a chain being solved at most
//! the odds service's budget, [`ChanceTable::now`] (for the answers the
//! single writer renders, which cannot wait) takes what is solved and queues
//! the rest.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::domain::MoveRecord;
use crate::narration::Chances;
use crate::rules::{self, DryBranch, Event, GameState, Outcome, Table};
use zohn_ahl_odds::{Lookup, MAX_STATES, OddsError, Solution, Solver, box_size};

/// Why a move's chances are not given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChancesUnknown {
    /// The ruleset's chain is larger than the odds service solves
    /// ([`MAX_STATES`] states).
    RulesetTooLarge,
    /// The ruleset's chain is being solved in the background: read the
    /// move again later.
    BeingSolved,
    /// The odds could not be found for this move (the solve failed, or the
    /// state before the move could not be found again).
    Unavailable,
    /// This server was started with its move chances off
    /// ([`set_move_chances`]).
    Off,
}

/// Whether the moves' chances are looked up (the server's
/// `--move-chances`); on unless the server turns them off.
static MOVE_CHANCES: AtomicBool = AtomicBool::new(true);

/// Turn the moves' chances on or off for this process: off, every move's
/// chances are unknown ([`ChancesUnknown::Off`]) and no chain is looked up
/// or queued for them (the odds, the recap's counts and the game reads
/// are unchanged otherwise). For a server that must spend nothing on them,
/// and for measuring what they cost (`scripts/load.sh`).
pub fn set_move_chances(on: bool) {
    MOVE_CHANCES.store(on, Ordering::Relaxed);
}

/// Whether the moves' chances are on.
#[must_use]
pub fn move_chances() -> bool {
    MOVE_CHANCES.load(Ordering::Relaxed)
}

impl ChancesUnknown {
    /// The reason as the API writes it.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Self::RulesetTooLarge => "ruleset_too_large",
            Self::BeingSolved => "being_solved",
            Self::Unavailable => "unavailable",
            Self::Off => "off",
        }
    }

    /// The reason in a sentence.
    #[must_use]
    pub fn detail(self) -> String {
        match self {
            Self::RulesetTooLarge => format!(
                "this ruleset's Markov chain has more than the {MAX_STATES} states this service solves exactly, so it has no exact odds; fewer counters, fewer players or no circuits_to_win make it smaller"
            ),
            Self::BeingSolved => "this ruleset's exact odds are being solved in the background; read the move again in a few seconds".to_owned(),
            Self::Unavailable => "the exact odds of this move could not be found".to_owned(),
            Self::Off => "this server was started with the moves' chances off (--move-chances off)".to_owned(),
        }
    }
}

/// A ruleset's solved chain, or why there is none.
#[derive(Clone, Debug)]
pub enum ChanceTable {
    /// The chain, solved.
    Solved(Arc<Solution>),
    /// No chain to look in.
    Unknown(ChancesUnknown),
}

impl ChanceTable {
    /// The chain of `table` as the odds service has it now, without
    /// waiting: solved, too large, or (queued in the background, if it is
    /// not yet) being solved.
    #[must_use]
    pub fn now(solver: &Solver, table: &Table) -> Self {
        if !move_chances() {
            return Self::Unknown(ChancesUnknown::Off);
        }
        if let Some(solution) = solver.cached(table) {
            return Self::Solved(solution);
        }
        if box_size(table) > MAX_STATES {
            return Self::Unknown(ChancesUnknown::RulesetTooLarge);
        }
        // Queue it (a lookup queues the chain and waits for it; here
        // nobody waits for the answer).
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let (solver, table) = (solver.clone(), table.clone());
            runtime.spawn(async move {
                let _ = solver.lookup(&table).await;
            });
        }
        Self::Unknown(ChancesUnknown::BeingSolved)
    }

    /// The chain of `table`, waiting for it at most the odds service's
    /// budget.
    pub async fn ready(solver: &Solver, table: &Table) -> Self {
        if !move_chances() {
            return Self::Unknown(ChancesUnknown::Off);
        }
        match solver.lookup(table).await {
            Ok(Lookup::Solved(solution)) => Self::Solved(solution),
            Ok(Lookup::Pending { .. } | Lookup::QueueFull { .. }) => {
                Self::Unknown(ChancesUnknown::BeingSolved)
            }
            Err(OddsError::TooLarge { .. }) => Self::Unknown(ChancesUnknown::RulesetTooLarge),
            Err(_) => Self::Unknown(ChancesUnknown::Unavailable),
        }
    }

    /// Each side's chance of winning before move `record` and after it.
    ///
    /// # Errors
    /// Why they are not known.
    pub fn of_move(&self, table: &Table, record: &MoveRecord) -> Result<Chances, ChancesUnknown> {
        let solution = match self {
            Self::Solved(solution) => solution,
            Self::Unknown(why) => return Err(*why),
        };
        let after = chances_at(solution, &record.state).ok_or(ChancesUnknown::Unavailable)?;
        let mut before: Option<[f64; 2]> = None;
        for state in states_before(table, record) {
            let p = chances_at(solution, &state).ok_or(ChancesUnknown::Unavailable)?;
            match before {
                None => before = Some(p),
                // Two states the move could have been played from, with
                // other odds: the record does not tell which.
                Some(q) if (q[0] - p[0]).abs() > 1e-9 => return Err(ChancesUnknown::Unavailable),
                Some(_) => {}
            }
        }
        Ok(Chances {
            before: before.ok_or(ChancesUnknown::Unavailable)?,
            after,
        })
    }

    /// The chances of each of a game's moves, `records` being its moves
    /// from move 1 in order (before a move is after the one before it: no
    /// state is searched for).
    ///
    /// # Errors
    /// Why they are not known; [`ChancesUnknown::Unavailable`] when the
    /// records are not moves 1, 2, ... in order.
    pub fn of_game(
        &self,
        table: &Table,
        records: &[MoveRecord],
    ) -> Result<Vec<Chances>, ChancesUnknown> {
        let solution = match self {
            Self::Solved(solution) => solution,
            Self::Unknown(why) => return Err(*why),
        };
        let mut before = chances_at(solution, &GameState::new(table));
        let mut series = Vec::with_capacity(records.len());
        for (i, record) in records.iter().enumerate() {
            if usize::try_from(record.n).ok() != Some(i + 1) {
                return Err(ChancesUnknown::Unavailable);
            }
            let after = chances_at(solution, &record.state);
            let (Some(b), Some(a)) = (before, after) else {
                return Err(ChancesUnknown::Unavailable);
            };
            series.push(Chances {
                before: b,
                after: a,
            });
            before = after;
        }
        Ok(series)
    }
}

/// Each side's chance of winning at `state`: 1 and 0 once a side has won.
fn chances_at(solution: &Solution, state: &GameState) -> Option<[f64; 2]> {
    match state.outcome {
        Some(Outcome::Won { side }) => {
            let mut p = [0.0; 2];
            p[side.index()] = 1.0;
            Some(p)
        }
        Some(_) => None,
        None => solution.odds(state).map(|o| o.win),
    }
}

/// The states move `record` may have been played from: those on which its
/// throw gives exactly the state it left, by exactly its events. The mover's awl is in the
/// record; the counters and circuits before are the record's with its
/// transfers and circuits undone; a whipped awl may have stood anywhere;
/// whose turn it was in the round, whether the other side owed a turn and
/// whether it was an extra throw are tried (a few dozen plays at most; a
/// hundred or so where an awl was whipped).
#[must_use]
pub fn states_before(table: &Table, record: &MoveRecord) -> Vec<GameState> {
    if record.n == 1 {
        return vec![GameState::new(table)];
    }
    let after = &record.state;
    let Some(throws) = after.throws.checked_sub(1) else {
        return Vec::new();
    };
    let mover = record.seat.side;
    let other = mover.other();
    let mut base = after.clone();
    base.outcome = None;
    base.throws = throws;
    base.awls[mover.index()] = record.from;
    let mut whipped = false;
    for event in &record.events {
        match *event {
            Event::CounterPaid { payer, payee, .. } => {
                let (Some(up), Some(down)) = (
                    base.counters[payer.index()].checked_add(1),
                    base.counters[payee.index()].checked_sub(1),
                ) else {
                    return Vec::new();
                };
                base.counters[payer.index()] = up;
                base.counters[payee.index()] = down;
            }
            Event::CompletedCircuit { side, .. } => {
                let Some(c) = base.circuits[side.index()].checked_sub(1) else {
                    return Vec::new();
                };
                base.circuits[side.index()] = c;
            }
            Event::Whipped { victim, .. } if victim == other => whipped = true,
            _ => {}
        }
    }
    let others: Vec<u8> = if whipped {
        (1..=table.options().board.len()).collect()
    } else {
        vec![after.awl(other)]
    };
    // Turns are owed only where a dry branch loses a throw, and never by
    // the side throwing: a turn is owed as the sticks pass, and a side owing
    // one has its next turn skipped as they reach it.
    let mut owed = vec![[false, false]];
    if table.options().dry_branch == DryBranch::LoseThrow {
        let mut other_owes = [false, false];
        other_owes[other.index()] = true;
        owed.push(other_owes);
    }
    let mut found = Vec::new();
    for turn in 0..table.round_len() {
        if table.seat(turn) != record.seat {
            continue;
        }
        let Ok(turn) = u16::try_from(turn) else {
            continue;
        };
        for &forfeits in &owed {
            for extra_throw in [false, true] {
                for &at in &others {
                    let mut s = base.clone();
                    s.turn = turn;
                    s.forfeits = forfeits;
                    s.extra_throw = extra_throw;
                    s.awls[other.index()] = at;
                    if rules::play(table, &s, &record.throw)
                        .is_ok_and(|p| p.state == *after && p.events == record.events)
                    {
                        found.push(s);
                    }
                }
            }
        }
    }
    found
}
