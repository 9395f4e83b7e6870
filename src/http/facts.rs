//! The cultural-context facts a narration tells: every fact, by the id a
//! `context` segment carries, with its text for each audience, its
//! evidence and the rulesets it is told in.

use actix_web::{HttpResponse, get, web};
use serde::Serialize;
use utoipa::ToSchema;

use super::dto::CitationView;
use super::problem::{ApiError, Problem};
use crate::narration::{Audience, EvidenceGrade, Fact, RuleId, catalogue, in_games};
use crate::rules::{
    Board, DeadlyNorthBank, DryBranch, EndCheck, Options, Overshoot, OwnLastSpace, Preset,
    ThrowTable, TurnOrder,
};

/// A fact's text for each audience.
#[derive(Debug, Serialize, ToSchema)]
pub struct FactTextView {
    /// For the general audience.
    pub general: String,
    /// For ages 7-10.
    pub young: String,
    /// For scholars: what each source says, with page-level attribution.
    pub scholar: String,
}

/// The ruleset options a fact presupposes: it is told only in games whose
/// options take one of the values listed for each option named. An option
/// left out may take any value; no option named means every game.
#[derive(Debug, Default, Serialize, ToSchema)]
#[schema(example = json!({
    "board": null, "throw_table": ["sticks_sahe"], "deadly_north_bank": null,
    "own_last_space": null, "overshoot": null, "dry_branch": null,
    "turn_order": null, "end_check": null
}))]
pub struct FactWhenView {
    /// Track shapes.
    pub board: Option<Vec<Board>>,
    /// Throw tables.
    pub throw_table: Option<Vec<ThrowTable>>,
    /// Deadly banks of the north creek.
    pub deadly_north_bank: Option<Vec<DeadlyNorthBank>>,
    /// What landing exactly on own last space does.
    pub own_last_space: Option<Vec<OwnLastSpace>>,
    /// What passing own last space does.
    pub overshoot: Option<Vec<Overshoot>>,
    /// What a dry branch does.
    pub dry_branch: Option<Vec<DryBranch>>,
    /// How turns pass between team players.
    pub turn_order: Option<Vec<TurnOrder>>,
    /// When the counters are checked for a winner.
    pub end_check: Option<Vec<EndCheck>>,
}

/// A cultural-context fact, as a narration's `context` segment names it
/// (`fact`).
#[derive(Debug, Serialize, ToSchema)]
pub struct FactView {
    /// Stable id, kebab-case: the `fact` of a context segment.
    #[schema(example = "womens-game")]
    pub id: String,
    /// Its text for each audience.
    pub text: FactTextView,
    /// Topics, for choosing a fact relevant to a move.
    #[schema(example = json!(["intro", "women", "names"]))]
    pub tags: Vec<String>,
    /// How well it is evidenced: the weakest evidence behind what it tells.
    pub grade: EvidenceGrade,
    /// Its sources (ids of `GET /v1/sources`).
    pub citations: Vec<CitationView>,
    /// The audiences that may hear it (a fact resting on modern retellings
    /// alone is told to scholars only).
    pub audiences: Vec<Audience>,
    /// The options it presupposes.
    pub when: FactWhenView,
    /// The rule it retells, if it retells one: it is not told on a move
    /// that states that rule.
    pub retells: Option<RuleId>,
    /// Whether games of the composite reconstruction (the default ruleset)
    /// tell it: it fits the options and every audience may hear it.
    pub in_games: bool,
    /// The presets whose games tell it.
    pub told_in_presets: Vec<Preset>,
}

/// Every fact.
#[derive(Debug, Serialize, ToSchema)]
pub struct FactsView {
    /// Facts in the catalogue's order.
    pub items: Vec<FactView>,
}

fn when_view(fact: &Fact) -> FactWhenView {
    let w = &fact.when;
    FactWhenView {
        board: w.board.as_ref().map(|v| v.values().to_vec()),
        throw_table: w.throw_table.as_ref().map(|v| v.values().to_vec()),
        deadly_north_bank: w.deadly_north_bank.as_ref().map(|v| v.values().to_vec()),
        own_last_space: w.own_last_space.as_ref().map(|v| v.values().to_vec()),
        overshoot: w.overshoot.as_ref().map(|v| v.values().to_vec()),
        dry_branch: w.dry_branch.as_ref().map(|v| v.values().to_vec()),
        turn_order: w.turn_order.as_ref().map(|v| v.values().to_vec()),
        end_check: w.end_check.as_ref().map(|v| v.values().to_vec()),
    }
}

fn fact_view(fact: &Fact) -> FactView {
    FactView {
        id: fact.id.clone(),
        text: FactTextView {
            general: fact.general.clone(),
            young: fact.young.clone(),
            scholar: fact.scholar.clone(),
        },
        tags: fact.tags.clone(),
        grade: fact.grade,
        citations: fact.citations.iter().map(Into::into).collect(),
        audiences: Audience::ALL
            .into_iter()
            .filter(|&a| fact.told_to(a))
            .collect(),
        when: when_view(fact),
        retells: fact.rule.as_deref().and_then(|r| r.parse().ok()),
        in_games: in_games(fact, &Options::default()),
        told_in_presets: Preset::ALL
            .into_iter()
            .filter(|p| in_games(fact, &p.options()))
            .collect(),
    }
}

/// List every cultural-context fact the narration can tell.
///
/// Every cultural-context fact the narration can tell, with its text for
/// each audience, its evidence grade and sources, the options it
/// presupposes and the rulesets whose games tell it.
#[utoipa::path(
    operation_id = "list_facts",
    tag = "reference",
    responses((status = 200, description = "Every fact", body = FactsView))
)]
#[get("/v1/facts")]
pub async fn get_facts() -> HttpResponse {
    HttpResponse::Ok().json(FactsView {
        items: catalogue().facts.iter().map(fact_view).collect(),
    })
}

/// Read one fact, by the id a narration's context segment carries.
///
/// One fact, by the id a narration's context segment carries.
#[utoipa::path(
    operation_id = "get_fact",
    tag = "reference",
    params(("id" = String, Path, description = "The fact's id, e.g. womens-game", pattern = "^[a-z0-9-]{1,64}$", example = "womens-game")),
    responses(
        (status = 200, description = "The fact", body = FactView),
        (status = 400, description = "Malformed id", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such fact", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/facts/{id}")]
pub async fn get_fact(id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let ok = !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !ok {
        return Err(ApiError::field(
            "#/path/id",
            "must be 1 to 64 lower-case letters, digits or hyphens",
        ));
    }
    let cat = catalogue();
    let fact = cat
        .fact_index(&id)
        .and_then(|i| cat.facts.get(i))
        .ok_or_else(|| {
            ApiError::new(
                actix_web::http::StatusCode::NOT_FOUND,
                "fact-not-found",
                "Fact not found",
                format!("no fact has the id {id}; GET /v1/facts lists them"),
            )
        })?;
    Ok(HttpResponse::Ok().json(fact_view(fact)))
}
