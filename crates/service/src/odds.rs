//! Exact odds, for every surface that tells them: a game's odds from its
//! current state, and a ruleset's solved chain, within the odds service's
//! budget ([`zohn_ahl_odds::BUDGET`]). Past the budget the refusal asks to
//! wait (the chain goes on being solved in the background); a full queue
//! queues nothing and asks to wait too.

use std::sync::Arc;

use super::Service;
use super::error::ServiceError;
use super::refusal::{Refusal, RefusalKind};
use crate::chances::{ChanceTable, ChancesUnknown};
use crate::domain::{Game, GameId, MoveRecord};
use crate::narration::Chances;
use crate::rules::Table;
use zohn_ahl_odds::{Lookup, Odds, OddsError, Solution, Solver};

/// A game's exact odds from its current state.
#[derive(Clone, Debug)]
pub struct GameOdds {
    /// The game, as the odds found it.
    pub game: Game,
    /// Each side's probability of winning, and the expected throws left.
    pub odds: Odds,
    /// The chain they come from.
    pub solution: Arc<Solution>,
}

/// The solution of `table` from the odds service, within its budget.
///
/// # Errors
/// Not solved within the budget (being solved: ask again), the queue full
/// (nothing queued: ask again), the chain too large to solve.
pub async fn solution(solver: &Solver, table: Table) -> Result<Arc<Solution>, Refusal> {
    let budget = solver.settings().budget.as_secs_f64();
    match solver.lookup(&table).await {
        Ok(Lookup::Solved(sol)) => Ok(sol),
        Ok(Lookup::Pending { retry_after }) => Err(Refusal::new(
            RefusalKind::Unavailable,
            "odds-pending",
            "Odds being solved",
            format!(
                "this ruleset's exact odds were not solved within the {budget} s this request waits; they are being solved in the background: ask again in {retry_after} s"
            ),
        )
        .with_retry_after(retry_after)),
        Ok(Lookup::QueueFull { retry_after }) => Err(Refusal::new(
            RefusalKind::Unavailable,
            "odds-queue-full",
            "Odds queue full",
            format!(
                "too many rulesets are waiting for their exact odds to be solved; this one was not queued: ask again in {retry_after} s"
            ),
        )
        .with_retry_after(retry_after)),
        Err(OddsError::TooLarge { states, max }) => Err(Refusal::new(
            RefusalKind::Unprocessable,
            "ruleset-too-large",
            "Ruleset too large to solve",
            format!(
                "this ruleset's Markov chain has up to {states} states (awls, counters, circuits, turn order and forfeits together), more than the {max} this service solves exactly; fewer counters, fewer players or no circuits_to_win make it smaller"
            ),
        )),
        Err(other) => Err(Refusal::internal(&other)),
    }
}

impl Service {
    /// The odds of game `id` from its current state, within the odds
    /// service's budget.
    ///
    /// # Errors
    /// No such game, the game over (it has a result, not odds), and the
    /// refusals of [`solution`].
    pub async fn odds(&self, solver: &Solver, id: GameId) -> Result<GameOdds, Refusal> {
        let game = self.game(id).await?;
        if game.state.is_finished() {
            return Err(Refusal::new(
                RefusalKind::Conflict,
                "game-over",
                "Game over",
                "the game is finished: it has a result, not odds",
            ));
        }
        let table = game.setup.table().map_err(ServiceError::from)?;
        let solution = solution(solver, table).await?;
        let odds = solution
            .odds(&game.state)
            .ok_or_else(|| Refusal::internal(&"a stored state is not in its ruleset's chain"))?;
        Ok(GameOdds {
            game,
            odds,
            solution,
        })
    }

    /// Game `id`, all its moves (move 1 first) and each move's chances
    /// before and after it ([`ChanceTable::of_game`]), the ruleset's chain
    /// waited for at most the odds service's budget; for the recap and the
    /// chart of the chances.
    ///
    /// # Errors
    /// No such game; storage errors. Chances that are not known are the
    /// `Err` inside.
    pub async fn game_chances(&self, solver: &Solver, id: GameId) -> Result<GameChances, Refusal> {
        let game = self.game(id).await?;
        let moves = self
            .store()
            .moves(id, 0, game.state.throws)
            .await
            .map_err(ServiceError::from)?;
        let chances = match game.setup.table() {
            Ok(table) => ChanceTable::ready(solver, &table)
                .await
                .of_game(&table, &moves),
            Err(_) => Err(ChancesUnknown::Unavailable),
        };
        Ok(GameChances {
            game,
            moves,
            chances,
        })
    }
}

/// A game, its moves and their chances: [`Service::game_chances`].
#[derive(Clone, Debug)]
pub struct GameChances {
    /// The game as read.
    pub game: Game,
    /// Its moves, move 1 first.
    pub moves: Vec<MoveRecord>,
    /// Each move's chances before and after it, in the same order, or why
    /// they are not known.
    pub chances: Result<Vec<Chances>, ChancesUnknown>,
}
