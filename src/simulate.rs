//! Monte Carlo simulation of whole games (`zohn-ahl simulate`).
//!
//! Pure: games are played through [`rules::play_into`] with a
//! [`StreamThrows`] source, and the module returns counts and their summary.
//! Timing (throws per second) is the caller's business.

use serde::Serialize;

use crate::rules::{self, Event, GameState, Outcome, RulesError, Side, Table};
use crate::throws::StreamThrows;

/// Most throws one simulated game may take before it is abandoned (no game
/// of the presets comes near it: the longest seen in millions of `ludii`
/// games with 10 counters a side was under 20,000 throws).
pub const MAX_THROWS_PER_GAME: u32 = 1_000_000;

/// What happened in one simulated game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GameTally {
    /// Throws played (forced passes included).
    pub throws: u32,
    /// Turns taken: the first one, then one per passing of the sticks
    /// (skipped turns not counted).
    pub turns: u32,
    /// The winner; `None` when the game was abandoned at
    /// [`MAX_THROWS_PER_GAME`].
    pub winner: Option<Side>,
    /// Throws that could not be played (`overshoot: no_move`).
    pub forced_passes: u32,
    /// Throws that earned another throw, which was then taken.
    pub extra_throws: u32,
    /// Whips.
    pub whips: u32,
    /// Circuits completed, both sides together.
    pub circuits: u32,
    /// Falls into a creek, both sides together.
    pub creek_falls: u32,
    /// Throws lost to a dry branch (`dry_branch: lose_throw`).
    pub lost_throws: u32,
}

/// Slots of the per-kind event counts kept while a game is played.
const FORCED_PASS: usize = 0;
const THROWS_AGAIN: usize = 1;
const WHIPPED: usize = 2;
const COMPLETED_CIRCUIT: usize = 3;
const FELL_INTO_CREEK: usize = 4;
const LOST_THROW: usize = 5;
const TURN_PASSED: usize = 6;
const OTHER: usize = 7;

/// The count slot of an event. A `match` that only picks a slot compiles
/// to a table look-up, so tallying has no unpredictable branch per event.
#[inline]
const fn slot(event: &Event) -> usize {
    match event {
        Event::ForcedPass { .. } => FORCED_PASS,
        Event::ThrowsAgain { .. } => THROWS_AGAIN,
        Event::Whipped { .. } => WHIPPED,
        Event::CompletedCircuit { .. } => COMPLETED_CIRCUIT,
        Event::FellIntoCreek { .. } => FELL_INTO_CREEK,
        Event::LostThrow { .. } => LOST_THROW,
        Event::TurnPassed { .. } => TURN_PASSED,
        _ => OTHER,
    }
}

/// Play one game from the opening state with throws from `throws`.
/// `events` is a scratch buffer, reused between throws and games.
///
/// # Errors
/// Only on a defect: the table's own throws never mismatch it.
pub fn play_game(
    table: &Table,
    throws: &mut StreamThrows,
    events: &mut Vec<Event>,
) -> Result<GameTally, RulesError> {
    let throw_table = table.options().throw_table;
    let mut state = GameState::new(table);
    let mut counts = [0u32; 8];
    while !state.is_finished() && state.throws < MAX_THROWS_PER_GAME {
        let throw = throws.next_throw(throw_table);
        rules::play_into(table, &mut state, &throw, events)?;
        for event in events.iter() {
            counts[slot(event)] += 1;
        }
    }
    Ok(GameTally {
        throws: state.throws,
        turns: 1 + counts[TURN_PASSED],
        winner: match state.outcome {
            Some(Outcome::Won { side }) => Some(side),
            _ => None,
        },
        forced_passes: counts[FORCED_PASS],
        extra_throws: counts[THROWS_AGAIN],
        whips: counts[WHIPPED],
        circuits: counts[COMPLETED_CIRCUIT],
        creek_falls: counts[FELL_INTO_CREEK],
        lost_throws: counts[LOST_THROW],
    })
}

/// Mean, median and percentiles of a per-game count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Distribution {
    /// Mean.
    pub mean: f64,
    /// 10th percentile (nearest rank).
    pub p10: u32,
    /// Median (nearest rank).
    pub median: u32,
    /// 90th percentile (nearest rank).
    pub p90: u32,
    /// 99th percentile (nearest rank).
    pub p99: u32,
    /// Largest.
    pub max: u32,
}

impl Distribution {
    /// The distribution of `values` (sorted in place); all zero when empty.
    #[must_use]
    pub fn of(values: &mut [u32]) -> Self {
        if values.is_empty() {
            return Self::default();
        }
        values.sort_unstable();
        let n = values.len();
        // Nearest rank: the smallest value with at least q of the sample at
        // or below it.
        let rank = |q: f64| {
            // q in (0, 1] and n >= 1: the rank is in 1..=n.
            let r = (q * n as f64).ceil() as usize;
            values[r.clamp(1, n) - 1]
        };
        let sum: u64 = values.iter().map(|&v| u64::from(v)).sum();
        Self {
            mean: sum as f64 / n as f64,
            p10: rank(0.10),
            median: rank(0.50),
            p90: rank(0.90),
            p99: rank(0.99),
            max: values[n - 1],
        }
    }
}

/// Per-game means of the rarer events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PerGame {
    /// Forced passes.
    pub forced_passes: f64,
    /// Extra throws.
    pub extra_throws: f64,
    /// Whips.
    pub whips: f64,
    /// Circuits, both sides.
    pub circuits: f64,
    /// Creek falls, both sides.
    pub creek_falls: f64,
    /// Throws lost to a dry branch.
    pub lost_throws: f64,
}

/// The summary of a simulation.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Games abandoned at [`MAX_THROWS_PER_GAME`] (not in the win shares).
    pub unfinished: u64,
    /// Throws played in all.
    pub total_throws: u64,
    /// Throws per game.
    pub throws: Distribution,
    /// Turns per game.
    pub turns: Distribution,
    /// Games won by side A and by side B, as shares of all games.
    pub win_share: [f64; 2],
    /// Games won by the side that throws first, as a share of all games.
    pub first_side_win_share: f64,
    /// Standard error of [`Summary::first_side_win_share`]:
    /// `sqrt(p (1 - p) / games)`.
    pub first_side_win_share_se: f64,
    /// Standard error of the mean throws per game (sample deviation over
    /// `sqrt(games)`).
    pub throws_mean_se: f64,
    /// Per-game means of the rarer events.
    pub per_game: PerGame,
}

/// Simulate `games` games at `table`, all drawn from the one stream of
/// `seed`. `progress` is called after each game with the number done.
///
/// # Errors
/// Only on a defect of the rules (see [`play_game`]).
pub fn simulate(
    table: &Table,
    games: u64,
    seed: &str,
    mut progress: impl FnMut(u64),
) -> Result<Summary, RulesError> {
    let mut throws = StreamThrows::new(seed);
    let mut events = Vec::with_capacity(16);
    let capacity = usize::try_from(games).unwrap_or(0).min(1 << 24);
    let mut lengths: Vec<u32> = Vec::with_capacity(capacity);
    let mut turns: Vec<u32> = Vec::with_capacity(capacity);
    let mut wins = [0u64; 2];
    let mut unfinished = 0u64;
    let mut sums = [0u64; 6];
    let mut sum_sq = 0f64;
    for done in 1..=games {
        let t = play_game(table, &mut throws, &mut events)?;
        lengths.push(t.throws);
        turns.push(t.turns);
        sum_sq += f64::from(t.throws) * f64::from(t.throws);
        match t.winner {
            Some(side) => wins[side.index()] += 1,
            None => unfinished += 1,
        }
        for (sum, v) in sums.iter_mut().zip([
            t.forced_passes,
            t.extra_throws,
            t.whips,
            t.circuits,
            t.creek_falls,
            t.lost_throws,
        ]) {
            *sum += u64::from(v);
        }
        progress(done);
    }
    let n = games.max(1) as f64;
    let total_throws: u64 = lengths.iter().map(|&v| u64::from(v)).sum();
    let throws = Distribution::of(&mut lengths);
    let mean = throws.mean;
    let variance = if games > 1 {
        (sum_sq - n * mean * mean) / (n - 1.0)
    } else {
        0.0
    };
    let share = |w: u64| w as f64 / n;
    let first = share(wins[table.first().index()]);
    let [fp, et, wh, ci, cf, lt] = sums.map(|s| s as f64 / n);
    Ok(Summary {
        games,
        unfinished,
        total_throws,
        throws,
        turns: Distribution::of(&mut turns),
        win_share: wins.map(share),
        first_side_win_share: first,
        first_side_win_share_se: (first * (1.0 - first) / n).sqrt(),
        throws_mean_se: (variance.max(0.0) / n).sqrt(),
        per_game: PerGame {
            forced_passes: fp,
            extra_throws: et,
            whips: wh,
            circuits: ci,
            creek_falls: cf,
            lost_throws: lt,
        },
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::rules::{Options, Preset};

    fn table(preset: Preset) -> Table {
        let p = usize::from(preset.default_players());
        Table::new(preset.options(), [p, p], Side::A).unwrap()
    }

    #[test]
    fn nearest_rank_percentiles() {
        let mut v: Vec<u32> = (1..=100).rev().collect();
        let d = Distribution::of(&mut v);
        assert_eq!(
            (d.p10, d.median, d.p90, d.p99, d.max),
            (10, 50, 90, 99, 100)
        );
        assert!((d.mean - 50.5).abs() < 1e-12);
        assert_eq!(Distribution::of(&mut []), Distribution::default());
        let mut one = [7];
        let d = Distribution::of(&mut one);
        assert_eq!((d.p10, d.median, d.p99, d.max), (7, 7, 7, 7));
    }

    #[test]
    fn a_seed_gives_the_same_summary() {
        let t = table(Preset::Composite);
        let a = simulate(&t, 50, "s", |_| {}).unwrap();
        let b = simulate(&t, 50, "s", |_| {}).unwrap();
        let c = simulate(&t, 50, "other", |_| {}).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.total_throws, c.total_throws);
    }

    #[test]
    fn every_game_ends_and_the_counts_add_up() {
        for preset in Preset::ALL {
            let t = table(preset);
            let mut progress = Vec::new();
            let s = simulate(&t, 40, "sum", |d| progress.push(d)).unwrap();
            assert_eq!(progress, (1..=40).collect::<Vec<_>>(), "{preset:?}");
            assert_eq!(s.unfinished, 0, "{preset:?}");
            assert!((s.win_share[0] + s.win_share[1] - 1.0).abs() < 1e-12);
            assert!(s.throws.p10 <= s.throws.median && s.throws.median <= s.throws.p90);
            assert!(s.throws.p90 <= s.throws.p99 && s.throws.p99 <= s.throws.max);
            // Every throw either passes the sticks (a new turn), earns
            // another throw or ends the game: throws = (turns - 1) + extra
            // throws + 1.
            let turns_plus_extra = s.turns.mean + s.per_game.extra_throws;
            assert!(
                (s.throws.mean - turns_plus_extra).abs() < 1e-9,
                "{preset:?}"
            );
            if preset == Preset::Ludii {
                assert!(s.per_game.forced_passes > 0.0);
            } else {
                assert!(s.per_game.forced_passes == 0.0);
            }
        }
    }

    #[test]
    fn a_game_tally_matches_a_replay_through_play() {
        // The tally's throws and winner agree with playing the same stream
        // through the public `play`, throw by throw.
        let t = table(Preset::Composite);
        let mut stream = StreamThrows::new("replay");
        let tally = play_game(&t, &mut stream, &mut Vec::new()).unwrap();
        let mut stream = StreamThrows::new("replay");
        let mut state = GameState::new(&t);
        let mut whips = 0;
        while !state.is_finished() {
            let throw = stream.next_throw(t.options().throw_table);
            let played = rules::play(&t, &state, &throw).unwrap();
            whips += played
                .events
                .iter()
                .filter(|e| matches!(e, Event::Whipped { .. }))
                .count();
            state = played.state;
        }
        assert_eq!(tally.throws, state.throws);
        assert_eq!(tally.whips as usize, whips);
        assert_eq!(
            tally.winner,
            match state.outcome {
                Some(Outcome::Won { side }) => Some(side),
                _ => None,
            }
        );
    }

    #[test]
    fn composite_games_are_about_168_throws_long() {
        // The project's first simulation, 20,000 games: about 168 throws per game.
        let t = Table::new(Options::default(), [1, 1], Side::A).unwrap();
        let s = simulate(&t, 2_000, "length", |_| {}).unwrap();
        assert!(
            (s.throws.mean - 168.0).abs() < 5.0 * s.throws_mean_se + 5.0,
            "{s:?}"
        );
    }
}
