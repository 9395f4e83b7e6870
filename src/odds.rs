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
//! at the end. Gauss-Seidel value iteration: each sweep updates the states
//! in place, in an order that runs backwards from the finish (states nearest
//! the end of the game first: fewest counters from a win, then, with
//! `circuits_to_win`, most circuits, then the awls furthest along), so that
//! one sweep carries the end values a long way into the chain. A state's
//! self-loop (a forced pass that throws again) is solved exactly. Sweeps
//! stop when no value moved by more than [`TOLERANCE`] in the last sweep
//! (for `E`, relative to the value), and the change of the last sweep is
//! reported.
//!
//! Solutions are cached per table (options, team sizes, first side) for the
//! life of the process: [`cached`] computes each one once (the cache keeps
//! at most [`MAX_CACHED`] solutions, and solves one chain at a time).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::rules::{
    self, DryBranch, Event, GameState, Options, Outcome, RulesError, Side, Table, Throw,
};

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

/// How states are numbered in the full state box.
#[derive(Clone, Copy, Debug)]
struct Layout {
    len: usize,
    total: u8,
    counters: usize,
    circuits_to_win: Option<u16>,
    circuits: usize,
    forfeits: usize,
    turns: usize,
}

impl Layout {
    fn new(table: &Table) -> Self {
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

    fn size(&self) -> u64 {
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
    fn encode(&self, s: &GameState) -> Option<usize> {
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
    fn decode(&self, mut i: usize) -> GameState {
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

    /// How near the end of the game a state is: smaller is nearer.
    fn distance_to_finish(&self, s: &GameState) -> usize {
        let ca = s.counters[0];
        let by_counters = usize::from(ca.min(self.total - ca));
        match self.circuits_to_win {
            Some(k) => {
                let most = s.circuits[0].max(s.circuits[1]);
                by_counters.min(usize::from(k - most))
            }
            None => by_counters,
        }
    }
}

/// Where a transition leads: a state, or the end of the game.
const A_WINS: u32 = u32::MAX;
const B_WINS: u32 = u32::MAX - 1;

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
    /// Gauss-Seidel sweeps made.
    pub sweeps: u32,
    /// The largest change of a probability in the last sweep.
    pub last_change: f64,
    /// Distinct throw results (the chain's branching factor).
    pub results: usize,
}

impl Solution {
    /// States in the chain (reachable from the opening).
    #[must_use]
    pub fn states(&self) -> usize {
        self.win_a.len()
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

/// Build and solve the chain of `table` (no cache; see [`cached`]).
///
/// # Errors
/// [`OddsError::TooLarge`] when the state box exceeds [`MAX_STATES`];
/// [`OddsError::NoConvergence`] or [`OddsError::Rules`] only on a defect.
pub fn solve(table: &Table) -> Result<Solution, OddsError> {
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

    // Breadth-first from the opening: discovery ids and transitions.
    let mut found = vec![u32::MAX; size];
    let mut boxes: Vec<u32> = Vec::new();
    let mut next: Vec<u32> = Vec::new();
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

    // The sweep order: backwards from the finish.
    let mut order: Vec<u32> = (0..n as u32).collect();
    let keys: Vec<(usize, usize, usize)> = boxes
        .iter()
        .map(|&b| {
            let s = layout.decode(b as usize);
            let along = usize::from(s.awls[0]) + usize::from(s.awls[1]);
            (
                layout.distance_to_finish(&s),
                usize::MAX - along,
                b as usize,
            )
        })
        .collect();
    order.sort_unstable_by_key(|&id| keys[id as usize]);
    let mut rank = vec![0u32; n];
    for (pos, &id) in order.iter().enumerate() {
        rank[id as usize] = pos as u32;
    }
    let mut edges: Vec<u32> = Vec::with_capacity(n * r);
    for &id in &order {
        for &t in &next[id as usize * r..(id as usize + 1) * r] {
            edges.push(if t >= B_WINS { t } else { rank[t as usize] });
        }
    }
    drop(next);
    let mut position = vec![u32::MAX; size];
    for (id, &b) in boxes.iter().enumerate() {
        position[b as usize] = rank[id];
    }
    drop(boxes);

    let probs: Vec<f64> = results.iter().map(|(_, p)| *p).collect();
    let mut win_a = vec![0.5f64; n];
    let mut throws = vec![0f64; n];
    let mut sweeps = 0;
    let mut last_change;
    loop {
        sweeps += 1;
        let mut dp = 0f64;
        let mut de = 0f64;
        for i in 0..n {
            let mut p = 0f64;
            let mut e = 1f64;
            let mut stay = 0f64;
            for (k, &t) in edges[i * r..(i + 1) * r].iter().enumerate() {
                let q = probs[k];
                match t {
                    A_WINS => p += q,
                    B_WINS => {}
                    t if t as usize == i => stay += q,
                    t => {
                        p += q * win_a[t as usize];
                        e += q * throws[t as usize];
                    }
                }
            }
            let keep = 1.0 - stay;
            let (p, e) = (p / keep, e / keep);
            dp = dp.max((p - win_a[i]).abs());
            de = de.max((e - throws[i]).abs() / e.max(1.0));
            win_a[i] = p;
            throws[i] = e;
        }
        last_change = dp;
        // f64::max skips NaN: check the values themselves, so a defect can
        // never pass for convergence.
        if !win_a.iter().chain(&throws).all(|v| v.is_finite()) {
            return Err(OddsError::NoConvergence { sweeps });
        }
        if dp < TOLERANCE && de < TOLERANCE {
            break;
        }
        if sweeps >= MAX_SWEEPS {
            return Err(OddsError::NoConvergence { sweeps });
        }
    }
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
    })
}

/// The cache key: everything a chain depends on.
type Key = (Options, [u8; 2], Side);

type Slot = Arc<OnceLock<Result<Arc<Solution>, OddsError>>>;

/// Most solutions the cache keeps; past it a finished one is dropped to make
/// room (any one: clients may choose many distinct rulesets, and a large
/// chain's solution takes tens of MB).
pub const MAX_CACHED: usize = 8;

fn cache() -> &'static Mutex<HashMap<Key, Slot>> {
    static CACHE: OnceLock<Mutex<HashMap<Key, Slot>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Held while a chain is solved: one solve at a time, so concurrent
/// requests for several large rulesets cannot multiply the peak memory.
static SOLVING: Mutex<()> = Mutex::new(());

/// The solution of `table`, computed once per table (options, team sizes,
/// first side) while it stays in the cache (at most [`MAX_CACHED`]
/// solutions); callers asking for the same table meanwhile wait for the one
/// computation, and different tables are solved one at a time.
///
/// # Errors
/// As [`solve`] (errors are cached too).
pub fn cached(table: &Table) -> Result<Arc<Solution>, OddsError> {
    let key = (
        *table.options(),
        [table.players(Side::A), table.players(Side::B)],
        table.first(),
    );
    let slot = {
        let mut map = cache()
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !map.contains_key(&key) && map.len() >= MAX_CACHED {
            let done = map
                .iter()
                .find(|(_, slot)| slot.get().is_some())
                .map(|(k, _)| *k);
            if let Some(k) = done {
                map.remove(&k);
            }
        }
        Arc::clone(map.entry(key).or_default())
    };
    slot.get_or_init(|| {
        let _one_at_a_time = SOLVING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        solve(table).map(Arc::new)
    })
    .clone()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::rules::Preset;

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
        let sol = cached(&t).unwrap();
        assert!(Arc::ptr_eq(&sol, &cached(&t).unwrap()), "computed once");
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
            cached(&big).unwrap_err(),
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
