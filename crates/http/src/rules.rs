//! The rules a narration states: every rule, by the id a `rule` or
//! `event` segment carries, with its full statement and short forms for
//! each audience, worded for a preset's board and sources.

use actix_web::{HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use strum::IntoEnumIterator;
use utoipa::{IntoParams, ToSchema};

use super::dto::CitationView;
use super::problem::{ApiError, Problem};
use crate::narration::{Audience, RuleId, rule_key_citations, rule_short_forms, rule_statement};
use zohn_ahl_rules::Preset;

/// A rule's full statement for each audience.
#[derive(Debug, Serialize, ToSchema)]
pub struct RuleStatementView {
    /// For the general audience.
    pub general: String,
    /// For ages 7-10.
    pub young: String,
    /// For scholars: where the sources disagree and which reading the
    /// ruleset follows.
    pub scholar: String,
}

/// A rule's short restatements for each audience: what a move says of a
/// rule it stated in full not long before.
#[derive(Debug, Serialize, ToSchema)]
pub struct RuleShortView {
    /// For the general audience.
    pub general: Vec<String>,
    /// For ages 7-10.
    pub young: Vec<String>,
    /// For scholars.
    pub scholar: Vec<String>,
}

/// A rule, worded for a preset's board.
#[derive(Debug, Serialize, ToSchema)]
pub struct RuleView {
    /// Its id: the `rule` of a narrated segment.
    pub id: RuleId,
    /// Whether the preset's games can call for it (a narration of such a
    /// game states no other rule).
    pub in_play: bool,
    /// The full statement.
    pub statement: RuleStatementView,
    /// The short restatements.
    pub short: RuleShortView,
    /// Every source the full statements draw on (what a scholar's rule
    /// segment cites).
    pub citations: Vec<CitationView>,
    /// The one or two sources that carry the rule (what event sentences,
    /// short restatements and the other audiences' rule segments cite).
    pub key_citations: Vec<CitationView>,
}

/// Every rule, for one preset.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulesView {
    /// The preset the rules are worded for.
    pub preset: Preset,
    /// Every rule, in the narration's order.
    pub items: Vec<RuleView>,
}

/// The preset the rules are worded for.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RulesQuery {
    /// A preset (default `composite`): its board's words fill the
    /// statements, and `in_play` is for its games.
    #[param(value_type = Option<Preset>)]
    preset: Option<String>,
}

impl RulesQuery {
    fn preset(&self) -> Result<Preset, ApiError> {
        match self.preset.as_deref() {
            None => Ok(Preset::default()),
            Some(name) => name.parse().map_err(|_| {
                ApiError::field(
                    "#/query/preset",
                    format!(
                        "must be one of: {}",
                        <Preset as strum::VariantNames>::VARIANTS.join(", ")
                    ),
                )
            }),
        }
    }
}

fn rule_view(preset: Preset, id: RuleId) -> RuleView {
    let options = preset.options();
    let full = |audience| {
        rule_statement(&options, audience, id)
            .map(|(text, _)| text)
            .unwrap_or_default()
    };
    let citations = rule_statement(&options, Audience::General, id)
        .map(|(_, c)| c)
        .unwrap_or_default();
    RuleView {
        id,
        in_play: id.applies(&options, preset.default_players() > 1),
        statement: RuleStatementView {
            general: full(Audience::General),
            young: full(Audience::Young),
            scholar: full(Audience::Scholar),
        },
        short: RuleShortView {
            general: rule_short_forms(&options, Audience::General, id),
            young: rule_short_forms(&options, Audience::Young, id),
            scholar: rule_short_forms(&options, Audience::Scholar, id),
        },
        citations: citations.iter().map(Into::into).collect(),
        key_citations: rule_key_citations(&options, id)
            .iter()
            .map(Into::into)
            .collect(),
    }
}

/// List every rule the narration states, worded for a preset.
///
/// Every rule the narration states, each with its full statement and
/// short forms for each audience and its sources, worded for a preset
/// (default `composite`), and whether that preset's games call for it.
#[utoipa::path(
    operation_id = "list_rules",
    tag = "reference",
    params(RulesQuery),
    responses(
        (status = 200, description = "Every rule", body = RulesView),
        (status = 400, description = "Unknown preset", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/rules")]
pub async fn get_rules(query: web::Query<RulesQuery>) -> Result<HttpResponse, ApiError> {
    let preset = query.preset()?;
    Ok(HttpResponse::Ok().json(RulesView {
        preset,
        items: RuleId::iter().map(|id| rule_view(preset, id)).collect(),
    }))
}

/// Read one rule, by the id a narration's segment carries.
///
/// One rule, by the id a narration's segment carries, worded for a preset
/// (default `composite`).
#[utoipa::path(
    operation_id = "get_rule",
    tag = "reference",
    params(("id" = RuleId, Path, description = "The rule's id, e.g. sticks_sahe", example = "sticks_sahe"), RulesQuery),
    responses(
        (status = 200, description = "The rule", body = RuleView),
        (status = 400, description = "Unknown preset", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such rule", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/rules/{id}")]
pub async fn get_rule(
    id: web::Path<String>,
    query: web::Query<RulesQuery>,
) -> Result<HttpResponse, ApiError> {
    let preset = query.preset()?;
    let id: RuleId = id.parse().map_err(|_| {
        ApiError::new(
            actix_web::http::StatusCode::NOT_FOUND,
            "rule-not-found",
            "Rule not found",
            "no rule has that id; GET /v1/rules lists them",
        )
    })?;
    Ok(HttpResponse::Ok().json(rule_view(preset, id)))
}
