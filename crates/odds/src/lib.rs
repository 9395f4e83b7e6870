//! Exact odds: each side's probability of winning and the expected number of
//! throws left, from any state of a ruleset, solved as an absorbing Markov
//! chain. Pure: no I/O, no clock.
//!
//! **States.** What decides the rest of a game: both awls, side A's counters
//! (B holds the rest), the circuits each side has completed when
//! `circuits_to_win` is set (without it circuits change nothing and are left
//! out), the turn index in the table's round (who throws, and so, in teams,
//! when the sticks pass to the other side), and the sides owing a forfeited
//! turn under `dry_branch: lose_throw`. Whether a throw is an extra throw
//! changes nothing that follows (the turn index already says who throws), nor
//! does the number of throws so far, so neither is in the state. The chain
//! holds the states reachable from the opening.
//!
//! **Transitions.** Each distinct result of the throw table (value and
//! throws-again) with its exact probability, played through
//! [`rules::play_into`] from the state: the engine is the only place the rules
//! live. A finished game is absorbing (a win for A or for B).
//!
//! **Solution.** `P(s) = Σ p_r · P(next_r(s))` with `P = 1` where A has won
//! and `0` where B has, and `E(s) = 1 + Σ p_r · E(next_r(s))` with `E = 0`
//! at the end; a state's self-loop (a forced pass that throws again) is
//! solved exactly. The chain is cut into its strongly connected components
//! (Tarjan): a component's transitions leave it only towards components
//! nearer the finish (circuits only grow, so with `circuits_to_win` each
//! circuit count is its own component; counters go both ways, so without it
//! most of the chain is one component). The components are solved one after
//! the other from the finish, each with the values of those it leads to
//! already fixed. Within a component the states are swept in place
//! (Gauss-Seidel) by counter layer, fewest counters from a win first, and
//! within a layer the awls furthest along first, so one sweep carries the
//! values a long way. A component that does not settle within a few sweeps
//! (counters that wander up and down for many throws, as in `ludii`) is
//! solved by restarted GMRES on the fixed point of a preconditioning step
//! (two rounds of a sweep in order and a sweep back by layer); each restart
//! is checked by a true step. The solve ends with sweeps of the whole chain
//! until no value moves by more than [`TOLERANCE`] in a sweep (for `E`,
//! relative to the value): the test the plain value iteration used, so the
//! results agree with it. The change of that last sweep is reported.
//!
//! **Service.** [`Solver`] (in `solver.rs`) caches solved chains, queues the
//! others for one background thread and lets a caller wait at most a time
//! budget; the HTTP handlers and the server use it.

// The crates below this one, by the names the modules use.
use zohn_ahl_rules as rules;

mod block;
mod chain;
mod layout;
mod solver;

use block::Block;
use chain::{Chain, Work, components};
use layout::Layout;

pub use solver::{BUDGET, Lookup, MAX_CACHE_BYTES, MAX_CACHED, MAX_PENDING, Settings, Solver};

use crate::rules::{Event, GameState, Outcome, RulesError, Side, Table, Throw};

/// Largest chain the solver takes, in states of the full state box (both
/// awls × counters × circuits × turn indexes × forfeits).
pub const MAX_STATES: u64 = 5_000_000;

/// A sweep that moves no probability by more than this (and no expected
/// throw count by more than this times its value) ends the iteration.
pub const TOLERANCE: f64 = 1e-12;

/// Most sweeps before the solver gives up.
pub const MAX_SWEEPS: u32 = 200_000;

/// Why a ruleset's odds cannot be given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    /// The chain is too large to solve here.
    #[error(
        "the ruleset's Markov chain has up to {states} states (awls × counters × circuits × turn indexes × forfeits), more than the {max} this service solves"
    )]
    TooLarge {
        /// States in the full state box.
        states: u64,
        /// The bound, [`MAX_STATES`].
        max: u64,
    },
    /// The iteration did not settle (a defect: every chain here is absorbing).
    #[error("the odds did not converge within {sweeps} sweeps")]
    NoConvergence {
        /// Sweeps made.
        sweeps: u32,
    },
    /// The solve was given up before it finished.
    #[error("the solve was cancelled")]
    Cancelled,
    /// The rules refused a throw (a defect).
    #[error(transparent)]
    Rules(#[from] RulesError),
}

/// The odds from one state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Odds {
    /// Probability that side A wins, then side B.
    pub win: [f64; 2],
    /// Expected throws until the game ends (forced passes included).
    pub expected_throws: f64,
}

/// Where a transition leads: a state, or the end of the game.
const A_WINS: u32 = u32::MAX;
const B_WINS: u32 = u32::MAX - 1;

/// Most Krylov vectors kept by the accelerated solve of one component.
const KRYLOV_DIM: usize = 20;

/// Memory the Krylov vectors of one component may take; a component too
/// large for a few vectors within it is solved by plain sweeps.
const KRYLOV_BYTES: usize = 96 << 20;

/// Most plain Gauss-Seidel sweeps of a component before the accelerated
/// solve starts (most small components settle within them).
const PLAIN_SWEEPS: u32 = 12;

/// A plain sweep whose change is more than this share of the previous
/// one's (from the third sweep on) hands the component to the accelerated
/// solve.
const SLOW: f64 = 0.25;

/// Rounds of sweeps in order and back by layer in one preconditioning
/// step.
const PRECONDITIONER_ROUNDS: usize = 2;

/// The solved chain of one table.
#[derive(Debug)]
pub struct Solution {
    layout: Layout,
    first: Side,
    /// The opening state.
    opening: GameState,
    /// Box index → position in the sweep order; `u32::MAX` if unreachable.
    position: Vec<u32>,
    /// P(A wins), by sweep position.
    win_a: Vec<f64>,
    /// Expected throws left, by sweep position.
    throws: Vec<f64>,
    /// The work of the solve in Gauss-Seidel sweeps of the whole chain:
    /// the states updated, over all sweeps of all components (each
    /// Krylov step is one sweep of its component), divided by the chain's
    /// states and rounded up, the last full sweep included.
    pub sweeps: u32,
    /// The largest change of a probability in the last sweep, a full sweep
    /// of the chain.
    pub last_change: f64,
    /// Distinct throw results (the chain's branching factor).
    pub results: usize,
    /// Strongly connected components of the chain, solved one after the
    /// other from the finish backwards.
    pub components: usize,
}

impl Solution {
    /// States in the chain (reachable from the opening).
    #[must_use]
    pub fn states(&self) -> usize {
        self.win_a.len()
    }

    /// Bytes the solution holds (for the cache's bound).
    #[must_use]
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.position.len() * std::mem::size_of::<u32>()
            + (self.win_a.len() + self.throws.len()) * std::mem::size_of::<f64>()
    }

    /// The odds from `state`; `None` for a finished game or a state that
    /// the table cannot reach.
    #[must_use]
    pub fn odds(&self, state: &GameState) -> Option<Odds> {
        let i = self.layout.encode(state)?;
        let p = usize::try_from(*self.position.get(i)?).ok()?;
        let a = *self.win_a.get(p)?;
        Some(Odds {
            win: [a, 1.0 - a],
            expected_throws: self.throws[p],
        })
    }

    /// The odds at the opening.
    #[must_use]
    pub fn opening(&self) -> Odds {
        // The opening is where the search started, so it is in the chain.
        self.odds(&self.opening).unwrap_or(Odds {
            win: [f64::NAN, f64::NAN],
            expected_throws: f64::NAN,
        })
    }

    /// The probability that the side throwing first wins from the opening.
    #[must_use]
    pub fn first_side_wins(&self) -> f64 {
        self.opening().win[self.first.index()]
    }
}

/// Each distinct result of the table's throws, as a throw that gives it and
/// its exact probability.
fn results(table: &Table) -> Vec<(Throw, f64)> {
    let tt = table.options().throw_table;
    let mut out: Vec<(Throw, f64)> = Vec::new();
    for score in tt.results() {
        if let Some(throw) = tt
            .outcomes()
            .into_iter()
            .find(|t| tt.score(t).is_ok_and(|s| s == score))
        {
            out.push((throw, score.probability.as_f64()));
        }
    }
    out
}

/// Address space reserved at least for each working array of a solve.
///
/// With glibc's allocator a block this large is always mapped on its own
/// and unmapped when freed (and freeing it does not raise the size from
/// which blocks are mapped apart); smaller working arrays would come from
/// the allocator's heap and about 12 MB of them would stay resident after
/// the presets are solved. Only the pages written count as resident, so
/// reserving more than is used costs no memory.
const MAPPED_APART: usize = 33 << 20;

/// An empty working array with room for `len` items, reserved as
/// [`MAPPED_APART`] says.
fn scratch<T>(len: usize) -> Vec<T> {
    Vec::with_capacity(len.max(MAPPED_APART / std::mem::size_of::<T>().max(1)))
}

/// A working array of `len` copies of `value`, reserved as [`MAPPED_APART`]
/// says.
fn scratch_filled<T: Clone>(len: usize, value: T) -> Vec<T> {
    let mut v = scratch(len);
    v.resize(len, value);
    v
}

/// The number of states in the full state box of `table` (the bound
/// [`MAX_STATES`] applies to it), without building the chain.
#[must_use]
pub fn box_size(table: &Table) -> u64 {
    Layout::new(table).size()
}

/// Build and solve the chain of `table` (no cache; see [`Solver`]).
///
/// # Errors
/// [`OddsError::TooLarge`] when the state box exceeds [`MAX_STATES`];
/// [`OddsError::NoConvergence`] or [`OddsError::Rules`] only on a defect.
pub fn solve(table: &Table) -> Result<Solution, OddsError> {
    solve_until(table, &|| false)
}

/// [`solve`], giving up with [`OddsError::Cancelled`] as soon as
/// `cancelled` says so (it is asked once a sweep).
///
/// # Errors
/// As [`solve`], and [`OddsError::Cancelled`].
pub fn solve_until(table: &Table, cancelled: &dyn Fn() -> bool) -> Result<Solution, OddsError> {
    let layout = Layout::new(table);
    let size = layout.size();
    if size > MAX_STATES {
        return Err(OddsError::TooLarge {
            states: size,
            max: MAX_STATES,
        });
    }
    // size <= MAX_STATES fits in usize and u32.
    let size = size as usize;
    let results = results(table);
    let r = results.len();
    let probs: Vec<f64> = results.iter().map(|(_, p)| *p).collect();

    // Breadth-first from the opening: discovery ids and transitions.
    let mut found = scratch_filled(size, u32::MAX);
    let mut boxes: Vec<u32> = scratch(0);
    let mut next: Vec<u32> = scratch(0);
    let opening = GameState::new(table);
    let start = layout
        .encode(&opening)
        .ok_or(OddsError::NoConvergence { sweeps: 0 })?;
    found[start] = 0;
    boxes.push(start as u32);
    let mut events: Vec<Event> = Vec::with_capacity(16);
    let mut head = 0;
    while head < boxes.len() {
        let here = layout.decode(boxes[head] as usize);
        head += 1;
        for (throw, _) in &results {
            let mut s = here.clone();
            rules::play_into(table, &mut s, throw, &mut events)?;
            let target = match s.outcome {
                Some(Outcome::Won { side: Side::A }) => A_WINS,
                Some(_) => B_WINS,
                None => {
                    let i = layout
                        .encode(&s)
                        .ok_or(OddsError::NoConvergence { sweeps: 0 })?;
                    if found[i] == u32::MAX {
                        // At most size <= MAX_STATES states: fits in u32.
                        found[i] = boxes.len() as u32;
                        boxes.push(i as u32);
                    }
                    found[i]
                }
            };
            next.push(target);
        }
    }
    let n = boxes.len();

    // The components, each emitted after every component it leads to.
    let comp = components(n, r, &next);

    // The sweep order: component by component from the finish, and within
    // a component backwards from the finish (fewest counters from a win,
    // then the awls furthest along).
    // Packed as one u64 each (component, layer, 255 - awls along, box
    // index: 23 + 4 + 8 + 23 bits, as the box holds at most MAX_STATES
    // < 2^23 states and a layer is at most 15 counters from a win).
    let mut keys: Vec<u64> = scratch(n);
    keys.extend(boxes.iter().enumerate().map(|(id, &b)| {
        let s = layout.decode(b as usize);
        let along = u8::MAX - (s.awls[0] + s.awls[1]);
        let d = layout.counters_to_finish(&s);
        (u64::from(comp[id]) << 35) | (u64::from(d) << 31) | (u64::from(along) << 23) | u64::from(b)
    }));
    drop(comp);
    drop(boxes);
    keys.sort_unstable();
    let box_of = |key: u64| (key & ((1 << 23) - 1)) as usize;
    let comp_of = |key: u64| key >> 35;
    let layer_of = |key: u64| key >> 31;
    let mut order: Vec<u32> = scratch(n);
    order.extend(keys.iter().map(|&k| found[box_of(k)]));
    let mut rank = scratch_filled(n, 0u32);
    for (pos, &id) in order.iter().enumerate() {
        rank[id as usize] = pos as u32;
    }
    // Component boundaries in sweep positions, and the boundaries of the
    // layers (counters from a win) within each.
    let mut bounds: Vec<usize> = vec![0];
    let mut layers: Vec<usize> = vec![0];
    for pos in 1..n {
        if comp_of(keys[pos]) != comp_of(keys[pos - 1]) {
            bounds.push(pos);
            layers.push(pos);
        } else if layer_of(keys[pos]) != layer_of(keys[pos - 1]) {
            layers.push(pos);
        }
    }
    bounds.push(n);
    layers.push(n);
    drop(keys);
    // The box's index of sweep positions, kept with the solution.
    let position: Vec<u32> = found
        .iter()
        .map(|&p| if p == u32::MAX { p } else { rank[p as usize] })
        .collect();
    drop(found);

    let chain = Chain::new(&probs, &next, &order, &rank, &bounds)?;
    drop(next);
    drop(order);
    drop(rank);

    let mut work = Work {
        updates: 0,
        cancelled,
    };
    let mut win_a = vec![0.5f64; n];
    let mut throws = vec![0f64; n];
    let mut bp: Vec<f64> = Vec::new();
    let mut be: Vec<f64> = Vec::new();
    for w in bounds.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        bp.clear();
        be.clear();
        for i in lo..hi {
            let (mut p, mut e) = (chain.to_a[i], 1.0);
            for k in chain.ext_start[i] as usize..chain.ext_start[i + 1] as usize {
                let q = probs[usize::from(chain.ext_k[k])];
                let t = chain.ext_t[k] as usize;
                p += q * win_a[t];
                e += q * throws[t];
            }
            bp.push(p);
            be.push(e);
        }
        let first = layers.partition_point(|&l| l < lo);
        let last = layers.partition_point(|&l| l <= hi);
        let block = Block {
            layers: layers[first..last].iter().map(|&l| l - lo).collect(),
            start: &chain.int_start[lo..=hi],
            t: &chain.int_t,
            k: &chain.int_k,
            inv_keep: &chain.inv_keep[lo..hi],
            probs: &probs,
        };
        block.solve(&bp, &mut win_a[lo..hi], false, &mut work)?;
        block.solve(&be, &mut throws[lo..hi], true, &mut work)?;
    }

    // The last sweeps: the whole chain in order, until no value moves by
    // more than the tolerance (the fixed point of every component's solve
    // passes the first).
    let mut last_change;
    let mut full = 0u32;
    loop {
        full += 1;
        let (dp, de) = chain.sweep_all(&probs, &bounds, &mut win_a, &mut throws);
        work.updates += n as u64;
        last_change = dp;
        // f64::max skips NaN: check the values themselves, so a defect can
        // never pass for convergence.
        if !win_a.iter().chain(&throws).all(|v| v.is_finite()) {
            return Err(OddsError::NoConvergence { sweeps: full });
        }
        if dp < TOLERANCE && de < TOLERANCE {
            break;
        }
        if full >= MAX_SWEEPS {
            return Err(OddsError::NoConvergence { sweeps: full });
        }
        work.check()?;
    }
    let sweeps = u32::try_from(work.updates.div_ceil(n.max(1) as u64)).unwrap_or(u32::MAX);
    Ok(Solution {
        layout,
        first: table.first(),
        opening,
        position,
        win_a,
        throws,
        sweeps,
        last_change,
        results: r,
        components: bounds.len() - 1,
    })
}

/// The strongly connected components of the chain (Tarjan's algorithm,
/// without recursion): each state's component number, numbered in the
/// order they are completed, so that every transition out of a component
/// leads to a component with a smaller number.
#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::rules::{Options, Preset};

    fn table(options: Options, players: usize, first: Side) -> Table {
        Table::new(options, [players, players], first).unwrap()
    }

    #[test]
    fn encode_and_decode_agree() {
        let t = table(Preset::A4.options(), 2, Side::B);
        let l = Layout::new(&t);
        for i in [0, 1, 777, 12_345, l.size() as usize - 1] {
            assert_eq!(l.encode(&l.decode(i)), Some(i));
        }
    }

    #[test]
    fn one_counter_a_side_short_games_agree_with_a_hand_check() {
        // With one counter each, A first, the game ends at the first
        // counter transfer. Check the chain against the engine by a
        // first-step identity at the opening.
        let t = table(
            Options {
                counters_per_side: 1,
                ..Options::default()
            },
            1,
            Side::A,
        );
        let sol = solve(&t).unwrap();
        let open = sol.opening();
        let mut identity_p = 0.0;
        let mut identity_e = 1.0;
        for (throw, p) in results(&t) {
            let played = rules::play(&t, &GameState::new(&t), &throw).unwrap();
            let next = sol.odds(&played.state).unwrap();
            identity_p += p * next.win[0];
            identity_e += p * next.expected_throws;
        }
        assert!((open.win[0] - identity_p).abs() < 1e-10);
        assert!((open.expected_throws - identity_e).abs() < 1e-8);
        assert!((open.win[0] + open.win[1] - 1.0).abs() < 1e-15);
    }

    #[test]
    fn mirror_tables_give_mirror_odds() {
        // The board is symmetric: A first against B first swaps the odds.
        let a = solve(&table(Options::default(), 1, Side::A)).unwrap();
        let b = solve(&table(Options::default(), 1, Side::B)).unwrap();
        let (oa, ob) = (a.opening(), b.opening());
        assert!((oa.win[0] - ob.win[1]).abs() < 1e-10, "{oa:?} {ob:?}");
        assert!((oa.expected_throws - ob.expected_throws).abs() < 1e-7);
        assert!((a.first_side_wins() - b.first_side_wins()).abs() < 1e-10);
    }

    #[test]
    fn finished_games_have_no_odds_and_big_tables_are_refused() {
        let t = table(Options::default(), 1, Side::A);
        let sol = solve(&t).unwrap();
        let mut s = GameState::new(&t);
        s.outcome = Some(Outcome::Won { side: Side::A });
        assert_eq!(sol.odds(&s), None);
        let big = table(
            Options {
                counters_per_side: 15,
                circuits_to_win: Some(10),
                ..Options::default()
            },
            1,
            Side::A,
        );
        assert!(matches!(
            solve(&big).unwrap_err(),
            OddsError::TooLarge { .. }
        ));
        // B holds its last counter and throws from its own 18: a 2 (6/16)
        // lands it on its own 20, it falls in and pays it, and A wins.
        let mut near = GameState::new(&t);
        near.counters = [7, 1];
        near.awls = [1, 18];
        near.turn = 1;
        let o = sol.odds(&near).unwrap();
        assert!(o.win[0] > 6.0 / 16.0, "{o:?}");
    }
}
