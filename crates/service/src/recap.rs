//! The recap of a finished game: its turning point, its luckiest and
//! unluckiest throws, its rarest result, its falls, whips, circuits and
//! extra throws against what the odds expect, its longest run of moves, and
//! questions for a class; all found again from the move log on every read
//! (nothing is stored), the chances looked up in the ruleset's solved chain
//! ([`ChanceTable::of_game`]).
//!
//! What the odds expect of a count is the sum, over the game's moves, of
//! the count's probability on that move's throw, from the state the move
//! was played from (the state after the move before it): every equally
//! likely outcome of the sticks (or spinner) played on that state. It is
//! the expectation for this game's own positions, not for an average game.

use super::Service;
use super::refusal::{Refusal, RefusalKind};
use crate::chances::ChancesUnknown;
use crate::domain::GameId;
use crate::domain::{Game, MoveRecord};
use crate::error::ServiceError;
use crate::narration::{
    Audience, ChanceFacts, Chances, Detail, MoveSwing, RareResult, RecapFacts, RecapText, Run,
    SwingCause, Tally, TallyKind, recap_words, turning_point,
};
use crate::odds::GameChances;
use crate::rules::{self, Event, GameState, Odds, Outcome, Side, Table};
use zohn_ahl_odds::Solver;

/// A finished game's recap.
#[derive(Clone, Debug)]
pub struct Recap {
    /// The game.
    pub game: Game,
    /// The numbers.
    pub facts: RecapFacts,
    /// Why the chances are not in it, when they are not.
    pub chances_unknown: Option<ChancesUnknown>,
    /// Each move whose throw's result is rarer than 1 in 16
    /// ([`crate::narration::RARE`]): its number, side, value and
    /// probability.
    pub rare_throws: Vec<(u32, Side, u8, Odds)>,
    /// The audience the words are for.
    pub audience: Audience,
    /// The detail level of the summary.
    pub detail: Detail,
    /// The words, for the audience and detail asked.
    pub text: RecapText,
}

/// The recap of `read` (a finished game, its moves and their chances) for
/// `audience` at `detail`.
#[must_use]
pub fn recap(read: GameChances, table: &Table, audience: Audience, detail: Detail) -> Recap {
    let GameChances {
        game,
        moves,
        chances,
    } = read;
    let (series, chances_unknown) = match chances {
        Ok(series) => (Some(series), None),
        Err(why) => (None, Some(why)),
    };
    let winner = match game.state.outcome {
        Some(Outcome::Won { side }) => Some(side),
        _ => None,
    };
    let facts = recap_facts(
        table,
        &moves,
        series.as_deref(),
        (game.state.throws, winner, game.was_stopped()),
    );
    let rare_throws = moves
        .iter()
        .filter(|m| m.score.probability.as_f64() < crate::narration::RARE)
        .map(|m| (m.n, m.seat.side, m.score.value, m.score.probability))
        .collect();
    let text = recap_words(
        &facts,
        table.options(),
        &game.setup.cast(),
        audience,
        detail,
    );
    Recap {
        game,
        facts,
        chances_unknown,
        rare_throws,
        audience,
        detail,
        text,
    }
}

/// The numbers of the recap of `moves`, a game played on `table` with
/// each move's chances `series` (when known), ended as `end` says: the
/// throws played, the winner (if any) and whether it was stopped. The
/// service's recap and the transcript's closing questions both come from
/// here.
#[must_use]
pub fn recap_facts(
    table: &Table,
    moves: &[MoveRecord],
    series: Option<&[Chances]>,
    end: (u32, Option<Side>, bool),
) -> RecapFacts {
    let (throws, winner, stopped) = end;
    RecapFacts {
        moves: throws,
        winner,
        stopped,
        chances: series.and_then(|s| chance_facts(moves, s, winner)),
        tallies: tallies(table, moves),
        rare: rarest(table, moves),
        extra_throw: extra_throw(table),
        longest_run: longest_run(moves),
    }
}

/// Move `m` with its chances.
fn swing(m: &MoveRecord, c: &Chances) -> MoveSwing {
    MoveSwing {
        n: m.n,
        side: m.seat.side,
        value: m.score.value,
        probability: m.score.probability,
        before: c.before,
        after: c.after,
        cause: SwingCause::of(&m.events),
    }
}

/// The chances part: the opening, the turning point, the luckiest and
/// unluckiest throws (by the change in their thrower's chance), the
/// winner's lowest chance. `None` for a game without moves.
fn chance_facts(
    moves: &[MoveRecord],
    series: &[Chances],
    winner: Option<Side>,
) -> Option<ChanceFacts> {
    let first = series.first()?;
    let turning = turning_point(series)?;
    let swings: Vec<MoveSwing> = moves.iter().zip(series).map(|(m, c)| swing(m, c)).collect();
    let turning_point = *swings.get(turning)?;
    // The earliest of equal gains.
    let luckiest = *swings
        .iter()
        .rev()
        .max_by(|a, b| a.gain().total_cmp(&b.gain()))?;
    let unluckiest = *swings.iter().min_by(|a, b| a.gain().total_cmp(&b.gain()))?;
    let winners_lowest = winner.map(|w| {
        let i = w.index();
        series
            .iter()
            .enumerate()
            .map(|(k, c)| (c.after[i], u32::try_from(k + 1).unwrap_or(u32::MAX)))
            .fold(
                (first.before[i], 0),
                |low, (p, n)| {
                    if p < low.0 { (p, n) } else { low }
                },
            )
    });
    Some(ChanceFacts {
        opening: first.before,
        turning_point,
        luckiest,
        unluckiest,
        winners_lowest,
    })
}

/// How many of each [`TallyKind`] these events hold.
fn count(events: &[Event]) -> [u32; 4] {
    let mut n = [0; 4];
    for e in events {
        let kind = match e {
            Event::FellIntoCreek { .. } => TallyKind::Falls,
            Event::Whipped { .. } => TallyKind::Whips,
            Event::CompletedCircuit { .. } => TallyKind::Circuits,
            Event::ThrowsAgain { .. } => TallyKind::ExtraThrows,
            _ => continue,
        };
        if let Some(slot) = TallyKind::ALL.iter().position(|k| *k == kind) {
            n[slot] += 1;
        }
    }
    n
}

/// Each count and its expectation (see the module's note).
fn tallies(table: &Table, moves: &[MoveRecord]) -> Vec<Tally> {
    let outcomes = table.options().throw_table.outcomes();
    let weight = 1.0 / f64::from(u32::try_from(outcomes.len()).unwrap_or(1));
    let mut observed = [0_u32; 4];
    let mut expected = [0.0_f64; 4];
    let start = GameState::new(table);
    let mut before = &start;
    for m in moves {
        let seen = count(&m.events);
        for outcome in &outcomes {
            if let Ok(played) = rules::play(table, before, outcome) {
                for (e, k) in expected.iter_mut().zip(count(&played.events)) {
                    *e += weight * f64::from(k);
                }
            }
        }
        for (o, k) in observed.iter_mut().zip(seen) {
            *o += k;
        }
        before = &m.state;
    }
    TallyKind::ALL
        .iter()
        .zip(observed.into_iter().zip(expected))
        .map(|(&kind, (observed, expected))| Tally {
            kind,
            observed,
            expected,
        })
        .collect()
}

/// The ruleset's rarest result (the highest value of the rarest), and how
/// often it came.
fn rarest(table: &Table, moves: &[MoveRecord]) -> RareResult {
    let results = table.options().throw_table.results();
    let p = |s: &rules::Score| s.probability.as_f64();
    let rare = results
        .iter()
        .min_by(|a, b| p(a).total_cmp(&p(b)).then(b.value.cmp(&a.value)))
        .copied();
    let (value, probability) = rare.map_or(
        (
            0,
            Odds {
                numerator: 0,
                denominator: 1,
            },
        ),
        |s| (s.value, s.probability),
    );
    RareResult {
        value,
        probability,
        observed: u32::try_from(
            moves
                .iter()
                .filter(|m| m.score.value == value && m.score.probability == probability)
                .count(),
        )
        .unwrap_or(u32::MAX),
    }
}

/// The probability that a throw earns another, in lowest terms.
fn extra_throw(table: &Table) -> Odds {
    let tt = table.options().throw_table;
    let outcomes = tt.outcomes();
    let again = outcomes
        .iter()
        .filter(|o| tt.score(o).is_ok_and(|s| s.throws_again))
        .count();
    let (mut num, mut den) = (
        u32::try_from(again).unwrap_or(0),
        u32::try_from(outcomes.len()).unwrap_or(1),
    );
    let mut a = num;
    let mut b = den;
    while b != 0 {
        (a, b) = (b, a % b);
    }
    if a > 1 {
        num /= a;
        den /= a;
    }
    Odds {
        numerator: num,
        denominator: den,
    }
}

/// The longest run of consecutive moves by one side (the earliest of equal
/// runs).
fn longest_run(moves: &[MoveRecord]) -> Option<Run> {
    let mut best: Option<Run> = None;
    let mut i = 0;
    while i < moves.len() {
        let side = moves[i].seat.side;
        let mut j = i;
        while j + 1 < moves.len() && moves[j + 1].seat.side == side {
            j += 1;
        }
        let run = Run {
            side,
            first: moves[i].n,
            last: moves[j].n,
            extra_throws_only: moves[i..j].iter().all(|m| {
                m.events
                    .iter()
                    .any(|e| matches!(e, Event::ThrowsAgain { .. }))
            }),
        };
        if best.is_none_or(|b| run.turns() > b.turns()) {
            best = Some(run);
        }
        i = j + 1;
    }
    best
}

impl Service {
    /// The recap of game `id`, finished or stopped, for `audience` (the
    /// game's own when `None`) at `detail` (likewise); the chances waited
    /// for at most the odds service's budget, and told as unknown past it.
    ///
    /// # Errors
    /// No such game; the game still in play (409 `game-in-play`); storage
    /// errors.
    pub async fn recap(
        &self,
        solver: &Solver,
        id: GameId,
        audience: Option<Audience>,
        detail: Option<Detail>,
    ) -> Result<Recap, Refusal> {
        let read = self.game_chances(solver, id).await?;
        if !read.game.state.is_finished() {
            return Err(Refusal::new(
                RefusalKind::Conflict,
                "game-in-play",
                "Game in play",
                "the game is still being played: its recap is made once it is won or stopped",
            ));
        }
        let table = read.game.setup.table().map_err(ServiceError::from)?;
        let audience = audience.unwrap_or(read.game.setup.audience);
        let detail = detail.unwrap_or(read.game.setup.detail);
        Ok(recap(read, &table, audience, detail))
    }
}
