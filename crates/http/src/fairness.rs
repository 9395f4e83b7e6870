//! "Are our sticks fair?": the throws a game (or a class of games) reported
//! against the exact probabilities of the throw table in play
//! ([`zohn_ahl_service::fairness`]).

use actix_web::{HttpResponse, get, web};
use serde::Serialize;
use utoipa::ToSchema;

use super::dto::ProbabilityView;
use super::extract::GameIdPath;
use super::problem::{ApiError, FieldError, Problem};
use crate::domain::GameId;
use crate::narration::Audience;
use crate::service::Service;
use zohn_ahl_rules::ThrowTable;
use zohn_ahl_service::fairness::{Fairness, MIN_EXPECTED};

/// Most games in one class.
pub const MAX_CLASS: usize = 50;

/// One result of the throw table, thrown and expected.
#[derive(Debug, Serialize, ToSchema)]
pub struct FairnessCellView {
    /// Spaces moved.
    #[schema(example = 2)]
    pub value: u8,
    /// Whether it throws again.
    pub throws_again: bool,
    /// Its exact probability under the table (from the rules).
    pub probability: ProbabilityView,
    /// Reported throws with this result.
    #[schema(example = 9)]
    pub observed: u32,
    /// Reported throws times the probability.
    #[schema(example = 7.5)]
    pub expected: f64,
}

/// Cells pooled for the test (each pooled cell expects at least 5 throws).
#[derive(Debug, Serialize, ToSchema)]
pub struct PooledCellView {
    /// Indices into `cells`.
    #[schema(example = json!([1, 3, 5, 6]))]
    pub cells: Vec<usize>,
    /// Their observed throws together.
    #[schema(example = 5)]
    pub observed: u32,
    /// Their expected throws together.
    #[schema(example = 5.0)]
    pub expected: f64,
}

/// What the result means, a sentence or two for each audience.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExplanationView {
    /// Ages 7-10, no jargon.
    pub young: String,
    /// Everyone.
    pub general: String,
    /// With the test's name, figures and the pooling rule.
    pub scholar: String,
}

/// The test for the games of one throw table.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "throw_table": "sticks_sahe",
    "games": ["0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79"],
    "throws": 20,
    "server_throws": 3,
    "cells": [
        {"value": 1, "throws_again": false, "probability": {"numerator": 3, "denominator": 16, "decimal": 0.1875}, "observed": 4, "expected": 3.75},
        {"value": 1, "throws_again": true, "probability": {"numerator": 1, "denominator": 16, "decimal": 0.0625}, "observed": 1, "expected": 1.25},
        {"value": 2, "throws_again": false, "probability": {"numerator": 3, "denominator": 8, "decimal": 0.375}, "observed": 9, "expected": 7.5},
        {"value": 3, "throws_again": false, "probability": {"numerator": 1, "denominator": 16, "decimal": 0.0625}, "observed": 1, "expected": 1.25},
        {"value": 3, "throws_again": true, "probability": {"numerator": 3, "denominator": 16, "decimal": 0.1875}, "observed": 3, "expected": 3.75},
        {"value": 6, "throws_again": true, "probability": {"numerator": 1, "denominator": 16, "decimal": 0.0625}, "observed": 1, "expected": 1.25},
        {"value": 10, "throws_again": true, "probability": {"numerator": 1, "denominator": 16, "decimal": 0.0625}, "observed": 1, "expected": 1.25}
    ],
    "pooled": [
        {"cells": [0, 4], "observed": 7, "expected": 7.5},
        {"cells": [1, 3, 5, 6], "observed": 4, "expected": 5.0},
        {"cells": [2], "observed": 9, "expected": 7.5}
    ],
    "chi_square": 0.5333,
    "degrees_of_freedom": 2,
    "p_value": 0.7659,
    "reliable": true,
    "unlike_fair": false,
    "min_throws": 14,
    "min_expected": 5.0,
    "explanation": {
        "young": "In 20 throws, any differences from what fair sticks would give are no bigger than luck often makes. So far there is no sign that our sticks are unfair.",
        "general": "In 20 reported throws, counts at least this far from those expected of fair sticks would turn up by chance with probability 0.766, so there is no sign that these sticks are unfair.",
        "scholar": "Pearson's chi-square goodness-of-fit test of 20 reported throws against the table's exact probabilities, results with expected counts under 5 pooled (the usual condition for the approximation): X² = 0.533, 2 degrees of freedom, p = 0.766; fair throws are not rejected at the 5% level."
    }
}))]
pub struct FairnessTestView {
    /// The throw table the games score by (`throw_table` of their ruleset).
    pub throw_table: ThrowTable,
    /// The games counted.
    pub games: Vec<String>,
    /// Reported throws counted (physical throws sent as `sticks` or
    /// `spinner`).
    pub throws: u32,
    /// Throws the server drew in these games: left out, they test the
    /// server's generator, not the class's sticks.
    pub server_throws: u32,
    /// Every result of the table, in the table's order.
    pub cells: Vec<FairnessCellView>,
    /// The cells as pooled for the test.
    pub pooled: Vec<PooledCellView>,
    /// Pearson's statistic over the pooled cells (null when no test could be made).
    pub chi_square: Option<f64>,
    /// Pooled cells minus one (null when no test could be made).
    pub degrees_of_freedom: Option<u32>,
    /// Probability that fair sticks give a statistic at least this large
    /// (null when no test could be made).
    #[schema(minimum = 0, maximum = 1)]
    pub p_value: Option<f64>,
    /// Whether the test was made: at least two pooled cells, each
    /// expecting at least `min_expected` throws.
    pub reliable: bool,
    /// Whether the test was made and `p_value` is under 0.05.
    pub unlike_fair: bool,
    /// The fewest reported throws from which this table can be tested.
    pub min_throws: u32,
    /// The smallest expected count of a pooled cell (Cochran's rule).
    pub min_expected: f64,
    /// What the result means, for each audience.
    pub explanation: ExplanationView,
}

/// The fairness of one game's, or a class's, reported throws.
#[derive(Debug, Serialize, ToSchema)]
pub struct FairnessView {
    /// The games asked for, in the order given.
    pub games: Vec<String>,
    /// One test per throw table among the games (games of different
    /// rulesets that share a table are counted together).
    pub tests: Vec<FairnessTestView>,
}

fn test_view(f: &Fairness, games: Vec<String>, server_throws: u32) -> FairnessTestView {
    let explain = |a| f.explanation(a);
    FairnessTestView {
        throw_table: f.table,
        games,
        throws: f.throws,
        server_throws,
        cells: f
            .cells
            .iter()
            .map(|c| FairnessCellView {
                value: c.value,
                throws_again: c.throws_again,
                probability: c.probability.into(),
                observed: c.observed,
                expected: c.expected,
            })
            .collect(),
        pooled: f
            .pooled
            .iter()
            .map(|p| PooledCellView {
                cells: p.cells.clone(),
                observed: p.observed,
                expected: p.expected,
            })
            .collect(),
        chi_square: f.test.map(|t| t.statistic),
        degrees_of_freedom: f.test.map(|t| t.degrees_of_freedom),
        p_value: f.test.map(|t| t.p_value),
        reliable: f.test.is_some(),
        unlike_fair: f.unlike_fair(),
        min_throws: f.min_throws,
        min_expected: MIN_EXPECTED,
        explanation: ExplanationView {
            young: explain(Audience::Young),
            general: explain(Audience::General),
            scholar: explain(Audience::Scholar),
        },
    }
}

/// The fairness report of games `ids` (the service's), as sent.
async fn report(service: &Service, ids: &[GameId]) -> Result<FairnessView, ApiError> {
    let tests = service.fairness(ids).await?;
    Ok(FairnessView {
        games: ids.iter().map(ToString::to_string).collect(),
        tests: tests
            .into_iter()
            .map(|t| {
                let games = t.games.iter().map(ToString::to_string).collect();
                test_view(&t.fairness, games, t.server_throws)
            })
            .collect(),
    })
}

/// Are this game's sticks fair?
///
/// The game's reported throws (physical
/// throws sent as `sticks` or `spinner`; the server's own throws are left
/// out) counted by result and compared with the exact probabilities of the
/// game's throw table by Pearson's chi-square test.
///
/// Results whose expected count is under 5 are pooled, the two smallest
/// together first, until every pooled cell expects at least 5 throws
/// (Cochran's rule); when fewer than two pooled cells are left, no test is
/// made (`reliable: false`, the statistic and p-value null) and
/// `min_throws` says from how many throws it can be (14 for the composite
/// sticks). The answer explains itself for each audience:
///
/// - young: whether the sticks came up about as often each way as fair
///   sticks would, or whether more throws are needed;
/// - general: how likely counts this far from fair are by chance, and what
///   that says about the sticks;
/// - scholar: the test, the pooling, X², degrees of freedom and p.
#[utoipa::path(
    operation_id = "get_game_fairness",
    tag = "games",
    params(GameIdPath),
    responses(
        (status = 200, description = "The test of the game's reported throws", body = FairnessView),
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/fairness")]
pub async fn get_game_fairness(
    service: web::Data<Service>,
    id: GameIdPath,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(report(&service, &[id.0]).await?))
}

/// A game of a class, as the query lists it: a game id (a UUID). Only its
/// schema is used; the query is read by hand (each id parsed as a
/// [`GameId`]). The schema is a game id's, its pattern
/// [`GAME_ID_PATTERN`](crate::extract::GAME_ID_PATTERN).
pub struct ClassGameId;

impl utoipa::PartialSchema for ClassGameId {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        #[allow(deprecated)] // `example`, as the derived schemas write it
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "A game of a class, as the query lists it: a game id (a UUID). Only its\nschema is used; the query is read by hand (each id parsed as a\n[`GameId`]).",
            ))
            .example(Some(serde_json::json!("0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79")))
            .pattern(Some(crate::extract::GAME_ID_PATTERN))
            .into()
    }
}

impl utoipa::ToSchema for ClassGameId {}

/// Are a class's sticks fair?
///
/// The reported throws of every game listed
/// (`?game=<id>&game=<id>`, 1 to 50 games, a game listed twice counted
/// once) tested together as for one game. Games whose rulesets throw by
/// different tables (the four sticks scored two ways, or the spinner) are
/// not mixed: the answer has one test per table, each naming its games.
#[utoipa::path(
    operation_id = "get_class_fairness",
    tag = "games",
    params(("game" = Vec<ClassGameId>, Query, description = "A game of the class (a UUID); repeat for each game, 1 to 50", min_items = 1, max_items = 50)),
    responses(
        (status = 200, description = "The test of the class's reported throws", body = FairnessView),
        (status = 400, description = "No game, more than 50, a malformed id or an unknown parameter", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "A game that does not exist", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/fairness")]
pub async fn get_class_fairness(
    service: web::Data<Service>,
    query: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, ApiError> {
    let mut ids: Vec<GameId> = Vec::new();
    let mut errors = Vec::new();
    for (i, (key, value)) in query.iter().enumerate() {
        // Parameters other than `game` are ignored, as everywhere.
        if key != "game" {
            continue;
        }
        match GameId::parse(value) {
            Ok(id) if !ids.contains(&id) => ids.push(id),
            Ok(_) => {}
            Err(e) => errors.push(FieldError {
                pointer: format!("#/query/game/{i}"),
                detail: e.to_string(),
            }),
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::invalid("the class's games as sent", errors));
    }
    if ids.is_empty() {
        return Err(ApiError::field(
            "#/query/game",
            "name at least one game: ?game=<id>&game=<id>",
        ));
    }
    if ids.len() > MAX_CLASS {
        return Err(ApiError::field(
            "#/query/game",
            format!("at most {MAX_CLASS} games in one class (got {})", ids.len()),
        ));
    }
    Ok(HttpResponse::Ok().json(report(&service, &ids).await?))
}
