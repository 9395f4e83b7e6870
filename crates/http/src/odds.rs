//! Exact odds: a game's odds from its current state, and each preset's
//! statistics from the opening (see [`zohn_ahl_odds`]).
//!
//! Both come from the odds service ([`Solver`]): a chain already solved is
//! answered at once; any other is solved in the background, one at a time,
//! and the request waits for it at most the service's budget
//! ([`zohn_ahl_odds::BUDGET`], 2 s). Past the budget the answer is 503 with
//! `Retry-After` and problem details of type `/problems/odds-pending` (the
//! chain goes on being solved; asking again later gets 200), and when the
//! queue of chains to solve is full, 503 with `Retry-After` and type
//! `/problems/odds-queue-full` (nothing was queued).

use std::sync::Arc;

use actix_web::{HttpResponse, get, web};
use serde::Serialize;
use utoipa::ToSchema;

use super::dto::{OptionsView, RulesetView};
use super::extract::{GameIdPath, PresetPath};
use super::problem::{ApiError, Problem};
use crate::domain::GameId;
use crate::service::{self, Service, ServiceError};
use zohn_ahl_odds::{Solution, Solver, TOLERANCE};
use zohn_ahl_rules::{Preset, Side, Table};

/// How a chain is solved: `components_gauss_seidel_gmres`, the game's
/// absorbing Markov chain cut into its strongly connected components and
/// solved one component after the other from the finish, each by
/// Gauss-Seidel sweeps swept backwards from the finish, accelerated by
/// GMRES where they settle slowly, then checked by whole sweeps of the
/// chain.
#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SolverMethod {
    /// The one method.
    ComponentsGaussSeidelGmres,
}

/// How the odds were computed.
#[derive(Debug, Serialize, ToSchema)]
pub struct SolverView {
    /// The method.
    pub method: SolverMethod,
    /// States of the chain (reachable from the opening).
    #[schema(example = 19712)]
    pub states: usize,
    /// Strongly connected components of the chain.
    #[schema(example = 1)]
    pub components: usize,
    /// The work of the solve in sweeps of the whole chain (states updated
    /// over all sweeps, divided by the chain's states).
    #[schema(example = 67)]
    pub sweeps: u32,
    /// The iteration stops once a sweep moves no probability by more than
    /// this (and no expected throw count by more than this times its value).
    #[schema(example = 1e-12)]
    pub tolerance: f64,
    /// The largest change of a probability in the last sweep.
    pub last_change: f64,
}

impl From<&Solution> for SolverView {
    fn from(s: &Solution) -> Self {
        Self {
            method: SolverMethod::ComponentsGaussSeidelGmres,
            states: s.states(),
            components: s.components,
            sweeps: s.sweeps,
            tolerance: TOLERANCE,
            last_change: s.last_change,
        }
    }
}

/// One side's chance of winning.
#[derive(Debug, Serialize, ToSchema)]
pub struct SideOddsView {
    /// `A` or `B`.
    pub side: Side,
    /// Probability that this side wins, from the current state.
    #[schema(minimum = 0, maximum = 1, example = 0.4976)]
    pub win_probability: f64,
}

/// Exact odds from a game's current state.
#[derive(Debug, Serialize, ToSchema)]
pub struct OddsView {
    /// The game's id.
    pub game_id: String,
    /// The game's version the odds are for.
    pub version: u32,
    /// Side A, then side B.
    pub sides: Vec<SideOddsView>,
    /// Expected throws until the game ends (forced passes included).
    #[schema(example = 168.7)]
    pub expected_remaining_throws: f64,
    /// How they were computed.
    pub solver: SolverView,
}

/// Exact statistics of a preset from the opening, one player a side, side A
/// first.
#[derive(Debug, Serialize, ToSchema)]
pub struct StatisticsView {
    /// The preset and its options.
    pub ruleset: RulesetView,
    /// Players on each side (always 1 here).
    pub players_per_side: u8,
    /// The side that throws first (always `A` here).
    pub first: Side,
    /// Probability that the side throwing first wins.
    #[schema(minimum = 0, maximum = 1, example = 0.4976)]
    pub first_side_win_probability: f64,
    /// Expected length of a game, in throws (forced passes included).
    #[schema(example = 168.7)]
    pub mean_throws: f64,
    /// How they were computed.
    pub solver: SolverView,
}

/// The solution of `table` from the odds service, within its budget
/// ([`service::solution`]).
async fn solution(solver: &Solver, table: Table) -> Result<Arc<Solution>, ApiError> {
    Ok(service::solution(solver, table).await?)
}

/// Compute each side's exact chance of winning from the game's current state.
///
/// Each side's exact probability of winning from the game's current state,
/// and the expected number of throws left.
///
/// Computed from the game's Markov chain (its ruleset, team sizes and first
/// side), solved once and kept in a cache of a few rulesets (the presets'
/// always). A chain not solved yet is solved in the background, one at a
/// time; the request waits for it at most 2 s, then gets **503** with
/// `Retry-After` and problem type `/problems/odds-pending`: the chain goes
/// on being solved, and asking again after the given seconds gets the odds.
/// When too many chains wait to be solved, **503** with `Retry-After` and
/// type `/problems/odds-queue-full` (nothing was queued). Rulesets whose
/// chain has more than 5,000,000 states are refused (422).
#[utoipa::path(
    operation_id = "get_odds",
    tag = "games",
    params(GameIdPath),
    responses(
        (status = 200, description = "The odds", body = OddsView),
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The game is over", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The ruleset's chain is too large to solve", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Not solved within the 2 s budget (`/problems/odds-pending`: being solved in the background, ask again after `Retry-After`), or too many rulesets waiting to be solved (`/problems/odds-queue-full`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u32, description = "Seconds to wait before asking again"))),
    )
)]
#[get("/v1/games/{id}/odds")]
pub async fn get_odds(
    service: web::Data<Service>,
    solver: web::Data<Solver>,
    GameIdPath(id): GameIdPath,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(game_odds(&service, &solver, id).await?))
}

/// The odds of game `id` from its current state, within the odds
/// service's budget ([`Service::odds`]).
async fn game_odds(service: &Service, solver: &Solver, id: GameId) -> Result<OddsView, ApiError> {
    let odds = service.odds(solver, id).await?;
    Ok(OddsView {
        game_id: odds.game.id.to_string(),
        version: odds.game.version.get(),
        sides: Side::BOTH
            .iter()
            .map(|&side| SideOddsView {
                side,
                win_probability: odds.odds.win[side.index()],
            })
            .collect(),
        expected_remaining_throws: odds.odds.expected_throws,
        solver: odds.solution.as_ref().into(),
    })
}

/// Compute a preset's exact first-side win probability and mean game length.
///
/// A preset's exact statistics: the probability that the side throwing
/// first wins, and the mean length of a game in throws.
///
/// For the preset as played: its options, its own team sizes (two a side
/// for `ludii`, one otherwise) and side A first.
/// Every preset is solved in the background when the server starts and kept
/// for the life of the process; until its chain is solved, the same rules as
/// the game odds apply (at most 2 s of waiting, then **503** with
/// `Retry-After`).
#[utoipa::path(
    operation_id = "get_ruleset_statistics",
    tag = "rulesets",
    params(("preset" = Preset, Path, description = "The preset")),
    responses(
        (status = 200, description = "The statistics", body = StatisticsView),
        (status = 404, description = "No such preset", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Not solved within the 2 s budget (`/problems/odds-pending`: being solved in the background, ask again after `Retry-After`), or too many rulesets waiting to be solved (`/problems/odds-queue-full`)", body = Problem, content_type = "application/problem+json",
            headers(("Retry-After" = u32, description = "Seconds to wait before asking again"))),
    )
)]
#[get("/v1/rulesets/{preset}/statistics")]
pub async fn get_statistics(
    solver: web::Data<Solver>,
    PresetPath(preset): PresetPath,
) -> Result<HttpResponse, ApiError> {
    let options = preset.options();
    let players = preset.default_players();
    let table =
        Table::new(options, [usize::from(players); 2], Side::A).map_err(ServiceError::from)?;
    let sol = solution(&solver, table).await?;
    let open = sol.opening();
    Ok(HttpResponse::Ok().json(StatisticsView {
        ruleset: RulesetView {
            preset,
            options: OptionsView::from(options),
        },
        players_per_side: players,
        first: Side::A,
        first_side_win_probability: sol.first_side_wins(),
        mean_throws: open.expected_throws,
        solver: sol.as_ref().into(),
    }))
}
