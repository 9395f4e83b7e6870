//! A game's chances over its moves, known, for the chart of the chances
//! (`chances.svg`, `chances.png`, the MCP tool `get_chances_chart`): the
//! chances at the start and after every move, or the same refusal as `GET
//! /v1/games/{id}/odds` gives when the ruleset has no solved chain (422
//! `ruleset-too-large`; 503 `odds-pending` or `odds-queue-full` with
//! `Retry-After`).

use super::Service;
use super::error::ServiceError;
use super::odds::{GameChances, solution};
use super::refusal::{Refusal, RefusalKind};
use crate::chances::ChancesUnknown;
use crate::domain::GameId;
use crate::narration::{Audience, Chances};
use crate::rules::GameState;
use zohn_ahl_odds::Solver;
use zohn_ahl_picture::{self as picture, ChanceChart, ChartMove, ChartResult};

/// A game, its moves, and their chances, all known.
#[derive(Clone, Debug)]
pub struct KnownChances {
    /// The game and its moves, as [`Service::game_chances`] read them.
    pub game: GameChances,
    /// Each side's chance of winning at the start (A first).
    pub start: [f64; 2],
    /// Each move's chances before and after it, move 1 first.
    pub series: Vec<Chances>,
}

/// The chart of a game's chances, drawn.
#[derive(Clone, Debug)]
pub struct ChartDrawing {
    /// The chart, as SVG.
    pub svg: String,
    /// The chart in words (what its `<desc>` says).
    pub description: String,
}

impl KnownChances {
    /// The chart of these chances, its words for `audience` (the game's
    /// when `None`): one drawing for both surfaces.
    #[must_use]
    pub fn chart(&self, audience: Option<Audience>) -> ChartDrawing {
        let game = &self.game.game;
        let setup = &game.setup;
        let moves: Vec<ChartMove<'_>> = self
            .game
            .moves
            .iter()
            .zip(&self.series)
            .map(|(record, chances)| ChartMove {
                side: record.seat.side,
                player: setup.player_name(record.seat),
                value: record.score.value,
                probability: record.score.probability,
                chances: *chances,
            })
            .collect();
        let chart = ChanceChart {
            sides: [&setup.sides[0].name, &setup.sides[1].name],
            start: self.start,
            moves: &moves,
            result: ChartResult::of(game.state.outcome, game.was_stopped()),
            audience: audience.unwrap_or(setup.audience),
            throw_table: setup.options.throw_table,
        };
        ChartDrawing {
            svg: picture::chances_svg(&chart),
            description: picture::chances_description(&chart),
        }
    }
}

impl Service {
    /// Game `id`, its moves and their chances ([`Service::game_chances`]),
    /// with the chances at the start; refused as the game's odds are when
    /// its ruleset's chain is not solved ([`solution`]).
    ///
    /// # Errors
    /// No such game; the ruleset too large to solve (unprocessable); its
    /// chain not solved within the budget, or the queue full (unavailable,
    /// with a retry-after); storage errors.
    pub async fn known_chances(
        &self,
        solver: &Solver,
        id: GameId,
    ) -> Result<KnownChances, Refusal> {
        let game = self.game(id).await?;
        let table = game.setup.table().map_err(ServiceError::from)?;
        let opening = GameState::new(&table);
        let solved = solution(solver, table).await?;
        let start = solved
            .odds(&opening)
            .ok_or_else(|| Refusal::internal(&"the opening is not in its ruleset's chain"))?
            .win;
        let read = self.game_chances(solver, id).await?;
        let series = match &read.chances {
            Ok(series) => series.clone(),
            // Solved a moment ago: not dropped since, but say so if it was.
            Err(ChancesUnknown::BeingSolved) => {
                return Err(Refusal::new(
                    RefusalKind::Unavailable,
                    "odds-pending",
                    "Odds being solved",
                    ChancesUnknown::BeingSolved.detail(),
                )
                .with_retry_after(1));
            }
            Err(why) => return Err(Refusal::internal(&why.detail())),
        };
        Ok(KnownChances {
            game: read,
            start,
            series,
        })
    }
}
