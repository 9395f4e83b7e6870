//! Applying a throw to a state (docs/rules.md#play and 4).

use super::board::{OwnSpace, Side};
use super::events::{CounterReason, Creek, Event, WinReason};
use super::options::{DryBranch, EndCheck, Overshoot, OwnLastSpace};
use super::state::{GameState, Outcome, Table};
use super::sticks::{Score, Throw, ThrowMismatch};

/// The result of one throw: the score, the events in order, and the new state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The throw's value, extra throw and probability.
    pub score: Score,
    /// What happened, in order.
    pub events: Vec<Event>,
    /// The state after the throw.
    pub state: GameState,
}

/// A throw or stop that the rules refuse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// The throw does not fit the table's throw table.
    #[error(transparent)]
    Throw(#[from] ThrowMismatch),
}

/// Play one throw for the seat whose turn it is.
///
/// Order of resolution (docs/rules.md#play; Ludii's order for whip then fall):
/// 1. passing own last space completes a circuit (+1 counter) and the awl
///    carries on, or, with `overshoot: no_move`, a throw past the finish is a
///    forced pass (the finish is own last space under `completes_circuit`,
///    own start otherwise, so an exact throw home is always possible);
/// 2. landing exactly on own last space falls into the south creek (or, by
///    option, is ordinary, or completes the circuit);
/// 3. a `cross_over` dry branch moves the awl across;
/// 4. landing on the other awl whips it (it goes to its own 1 and its side
///    pays one counter); an awl resting on its own start is never whipped;
/// 5. landing on the deadly north bank falls in (own 1, pay one counter);
/// 6. a dry branch under `lose_throw` forfeits a throw;
/// 7. the throw's own "throw again" decides who throws next.
///
/// Counters move one at a time and, under `end_check: immediate`, the game
/// ends the moment one side holds them all (docs/rules.md#end).
///
/// # Errors
/// [`RulesError::GameOver`] on a finished game; [`RulesError::Throw`] when
/// the throw does not fit the table's throw table.
pub fn play(table: &Table, state: &GameState, throw: &Throw) -> Result<Played, RulesError> {
    let mut next = state.clone();
    let mut events = Vec::with_capacity(6);
    let score = play_into(table, &mut next, throw, &mut events)?;
    Ok(Played {
        score,
        events,
        state: next,
    })
}

/// Play one throw in place: `state` becomes the new state and `events` (cleared
/// first) the events, in order; the score is returned. The same rules as
/// [`play`], without a state clone or a fresh event list per throw, for
/// simulations and the exact-odds solver. On an error nothing is changed.
///
/// # Errors
/// As [`play`].
// Always inlined: the simulations' loop (`zohn_ahl::simulate`) is in
// another crate, where a call per throw costs about a fifth of the throws
// per second, and LLVM's own choice to inline this or not flipped with
// changes elsewhere (docs/performance.md, "The engine against an earlier
// build").
#[inline(always)]
pub fn play_into(
    table: &Table,
    state: &mut GameState,
    throw: &Throw,
    events: &mut Vec<Event>,
) -> Result<Score, RulesError> {
    if state.is_finished() {
        return Err(RulesError::GameOver);
    }
    let score = table.options().throw_table.score(throw)?;
    events.clear();
    let side = state.to_throw(table).side;
    let mut turn = Turn {
        table,
        state,
        events,
        side,
        lost_throw: false,
    };
    turn.state.throws += 1;
    turn.state.extra_throw = false;
    if turn.advance(score.value).is_continue() {
        turn.finish_move();
    }
    if !turn.state.is_finished() {
        turn.pass_sticks(score.throws_again);
    }
    Ok(score)
}

/// Stop a game early: the side with more counters wins, equal counts are a
/// draw (the A4 sheet's rule, docs/rules.md#stop).
///
/// # Errors
/// [`RulesError::GameOver`] when the game is already over.
pub fn stop(state: &GameState) -> Result<(GameState, Event), RulesError> {
    if state.is_finished() {
        return Err(RulesError::GameOver);
    }
    let mut next = state.clone();
    let [a, b] = state.counters;
    let (outcome, event) = match a.cmp(&b) {
        std::cmp::Ordering::Equal => (Outcome::Draw, Event::Drawn),
        order => {
            let side = if order.is_gt() { Side::A } else { Side::B };
            (
                Outcome::Won { side },
                Event::Won {
                    side,
                    reason: WinReason::Stopped,
                },
            )
        }
    };
    next.outcome = Some(outcome);
    next.extra_throw = false;
    Ok((next, event))
}

/// Replay a whole game from its opening state.
///
/// # Errors
/// The first [`RulesError`] met.
pub fn replay<'a>(
    table: &Table,
    throws: impl IntoIterator<Item = &'a Throw>,
) -> Result<GameState, RulesError> {
    throws
        .into_iter()
        .try_fold(GameState::new(table), |state, throw| {
            play(table, &state, throw).map(|p| p.state)
        })
}

/// Whether resolution goes on after a step.
type Flow = std::ops::ControlFlow<()>;

struct Turn<'t> {
    table: &'t Table,
    state: &'t mut GameState,
    events: &'t mut Vec<Event>,
    side: Side,
    lost_throw: bool,
}

impl Turn<'_> {
    fn len(&self) -> u8 {
        self.table.options().board.len()
    }

    /// Move the awl by `value` and resolve every consequence.
    #[inline(always)]
    fn advance(&mut self, value: u8) -> Flow {
        let options = *self.table.options();
        let side = self.side;
        let from = self.state.awl(side);
        let len = self.len();
        let raw = u16::from(from) + u16::from(value);
        let len16 = u16::from(len);

        // Where an exact throw comes home: own last space under
        // `completes_circuit` (Ludii's `End`), own start (one past it) otherwise.
        let finish = if options.own_last_space == OwnLastSpace::CompletesCircuit {
            len16
        } else {
            len16 + 1
        };
        if raw > finish && options.overshoot == Overshoot::NoMove {
            self.events.push(Event::ForcedPass { side, value });
            return Flow::Continue(());
        }
        if raw > len16 {
            // Passing home: the circuit is complete and the awl carries on.
            // raw - len is at most 10, so it fits.
            let to = (raw - len16) as u8;
            self.push_moved(from, to, value);
            self.complete_circuit(false)?;
            return self.land(to);
        }
        // raw <= len, so it fits.
        let to = raw as u8;
        self.push_moved(from, to, value);
        if to == len {
            match options.own_last_space {
                OwnLastSpace::FallsIn => return self.fall_in(Creek::South, to),
                OwnLastSpace::CompletesCircuit => {
                    self.state.awls[side.index()] = 1;
                    return self.complete_circuit(true);
                }
                OwnLastSpace::Ordinary => {}
            }
        }
        self.land(to)
    }

    #[inline(always)]
    fn push_moved(&mut self, from: OwnSpace, to: OwnSpace, steps: u8) {
        let side = self.side;
        let deadly = self.table.options().deadly_north_space();
        let start = u16::from(from);
        let end = start + u16::from(steps);
        self.events.push(Event::Moved {
            side,
            from,
            to,
            steps,
        });
        if start < u16::from(deadly) && end > u16::from(deadly) {
            self.events.push(Event::PassedNorthCreek { side });
        }
        self.state.awls[side.index()] = to;
    }

    #[inline(always)]
    fn complete_circuit(&mut self, exact: bool) -> Flow {
        let side = self.side;
        let i = side.index();
        self.state.circuits[i] = self.state.circuits[i].saturating_add(1);
        let circuits = self.state.circuits[i];
        self.events.push(Event::CompletedCircuit {
            side,
            circuits,
            exact,
        });
        self.transfer(side.other(), side, CounterReason::Circuit)?;
        if let Some(needed) = self.table.options().circuits_to_win
            && circuits >= u16::from(needed)
        {
            return self.win(side, WinReason::Circuits);
        }
        Flow::Continue(())
    }

    /// Resolve landing on `to` (own numbering) after the count.
    #[inline(always)]
    fn land(&mut self, mut to: OwnSpace) -> Flow {
        let options = *self.table.options();
        let board = options.board;
        let side = self.side;
        if options.dry_branch == DryBranch::CrossOver
            && let Some(across) = board.cross_over(to)
        {
            self.events.push(Event::CrossedDryBranch {
                side,
                from: to,
                to: across,
            });
            self.state.awls[side.index()] = across;
            to = across;
        }
        // An awl resting on its own start is never whipped (docs/rules.md#whip:
        // under `falls_in` that space is a creek for the mover; the other
        // options follow the same rule).
        let victim = side.other();
        let victim_at = self.state.awl(victim);
        if victim_at != 1 && board.physical(victim, victim_at) == board.physical(side, to) {
            self.state.awls[victim.index()] = 1;
            self.events.push(Event::Whipped {
                side,
                victim,
                space: to,
            });
            self.transfer(victim, side, CounterReason::Whip)?;
        }
        if to == options.deadly_north_space() {
            return self.fall_in(Creek::North, to);
        }
        if board.is_dry_branch(to) {
            match options.dry_branch {
                DryBranch::NoEffect | DryBranch::CrossOver => {
                    self.events
                        .push(Event::LandedOnDryBranch { side, space: to });
                }
                DryBranch::LoseThrow => self.lost_throw = true,
            }
        }
        Flow::Continue(())
    }

    #[inline(always)]
    fn fall_in(&mut self, creek: Creek, space: OwnSpace) -> Flow {
        let side = self.side;
        self.state.awls[side.index()] = 1;
        self.events
            .push(Event::FellIntoCreek { side, creek, space });
        self.transfer(side, side.other(), CounterReason::CreekFall)
    }

    /// Move one counter; under `end_check: immediate` end the game when the
    /// payer has none left.
    #[inline(always)]
    fn transfer(&mut self, payer: Side, payee: Side, reason: CounterReason) -> Flow {
        let counters = &mut self.state.counters;
        if counters[payer.index()] == 0 {
            self.events.push(Event::CounterUnpaid {
                payer,
                payee,
                reason,
            });
            return Flow::Continue(());
        }
        counters[payer.index()] -= 1;
        counters[payee.index()] += 1;
        let counters = *counters;
        self.events.push(Event::CounterPaid {
            payer,
            payee,
            reason,
            counters,
        });
        if self.table.options().end_check == EndCheck::Immediate && counters[payer.index()] == 0 {
            return self.win(payee, WinReason::AllCounters);
        }
        Flow::Continue(())
    }

    fn win(&mut self, side: Side, reason: WinReason) -> Flow {
        self.state.outcome = Some(Outcome::Won { side });
        self.state.extra_throw = false;
        self.events.push(Event::Won { side, reason });
        Flow::Break(())
    }

    /// After a whole move: the `after_move` end check (Ludii).
    #[inline(always)]
    fn finish_move(&mut self) {
        if self.table.options().end_check == EndCheck::AfterMove
            && self.state.counters(self.side.other()) == 0
        {
            let _ = self.win(self.side, WinReason::AllCounters);
        }
    }

    /// Decide who throws next: the sticks alone grant an extra throw
    /// (docs/rules.md#extra-throw), unless a `lose_throw` dry branch takes it.
    #[inline(always)]
    fn pass_sticks(&mut self, throws_again: bool) {
        let side = self.side;
        if self.lost_throw {
            let space = self.state.awl(side);
            self.events.push(Event::LostThrow {
                side,
                space,
                extra_throw_lost: throws_again,
            });
            if !throws_again {
                self.state.forfeits[side.index()] = true;
            }
        }
        if throws_again && !self.lost_throw {
            self.state.extra_throw = true;
            let seat = self.state.to_throw(self.table);
            self.events.push(Event::ThrowsAgain { seat });
            return;
        }
        let round = self.table.round_len();
        let mut turn = usize::from(self.state.turn);
        // Each side forfeits at most one turn, so this ends within 3 steps.
        loop {
            turn += 1;
            if turn >= round {
                turn = 0;
            }
            let seat = self.table.seat(turn);
            let forfeit = &mut self.state.forfeits[seat.side.index()];
            if *forfeit {
                *forfeit = false;
                self.events.push(Event::TurnSkipped { seat });
                continue;
            }
            // round_len is at most 2 * lcm(7, 8) = 112, so it fits.
            self.state.turn = turn as u16;
            self.events.push(Event::TurnPassed { seat });
            break;
        }
    }
}
