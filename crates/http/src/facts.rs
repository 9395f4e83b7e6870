//! The cultural-context facts a narration tells: every fact, by the id a
//! `context` segment carries, with its text for each audience, its
//! evidence and the rulesets it is told in.

use actix_web::{HttpResponse, get, web};
use serde::Serialize;
use utoipa::ToSchema;

use super::dto::CitationView;
use super::problem::{ApiError, Problem};
use crate::narration::{Audience, EvidenceGrade, Fact, RuleId, catalogue, in_games};
use zohn_ahl_rules::{Options, OptionsCondition, Preset, option_specs};

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

/// The ruleset options a fact presupposes: every option of the rules' one
/// list, with the values the fact fits, or `null` where it fits any; its
/// schema is built from that list (`http/schema.rs`).
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub struct FactWhenView(serde_json::Map<String, serde_json::Value>);

impl From<&OptionsCondition> for FactWhenView {
    fn from(condition: &OptionsCondition) -> Self {
        let named = match serde_json::to_value(condition) {
            Ok(serde_json::Value::Object(named)) => named,
            _ => serde_json::Map::new(),
        };
        Self(
            option_specs()
                .iter()
                .map(|spec| {
                    let values = named.get(spec.name).cloned();
                    (
                        spec.name.to_owned(),
                        values.unwrap_or(serde_json::Value::Null),
                    )
                })
                .collect(),
        )
    }
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
    FactWhenView::from(&fact.when)
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
