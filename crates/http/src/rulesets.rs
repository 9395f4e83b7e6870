//! The presets and options, and each preset's rules as a narrated lesson.

use actix_web::{HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::dto::{CitationView, OptionsView};
use super::extract::PresetPath;
use super::problem::{ApiError, Problem};
use crate::narration::{Audience, CitedText, lesson, preset_summary};
use zohn_ahl_rules::{OptionKind, Preset, option_specs};

/// A text with its sources.
#[derive(Debug, Serialize, ToSchema)]
pub struct CitedTextView {
    /// The text.
    pub text: String,
    /// Its sources.
    pub citations: Vec<CitationView>,
}

impl From<&CitedText> for CitedTextView {
    fn from(c: &CitedText) -> Self {
        Self {
            text: c.text.clone(),
            citations: c.citations.iter().map(Into::into).collect(),
        }
    }
}

/// A preset.
#[derive(Debug, Serialize, ToSchema)]
pub struct PresetView {
    /// Its id.
    pub id: Preset,
    /// Its title.
    pub title: String,
    /// What it is and where it comes from, cited.
    pub summary: CitedTextView,
    /// The options it sets.
    pub options: OptionsView,
    /// Players per side when the creator names none.
    pub players_per_side: u8,
    /// Its lesson: `/v1/rulesets/{preset}`.
    pub lesson: String,
}

/// One allowed value of an option.
#[derive(Debug, Serialize, ToSchema)]
pub struct OptionValueView {
    /// The value.
    pub value: String,
    /// Where it departs from the composite reconstruction, what it does
    /// and its sources; `null` for the composite's own value.
    pub departure: Option<CitedTextView>,
}

/// One option of a ruleset.
#[derive(Debug, Serialize, ToSchema)]
pub struct OptionView {
    /// Its name in `ruleset.options`.
    pub name: String,
    /// What it decides.
    pub description: String,
    /// The composite reconstruction's value: one of `values` for an
    /// enumerated option, an integer or `null` (off) for a numeric one.
    #[schema(value_type = Option<crate::schema::OptionValue>)]
    pub default: serde_json::Value,
    /// The allowed values (enumerated options).
    pub values: Vec<OptionValueView>,
    /// Smallest allowed value (numeric options).
    pub minimum: Option<u8>,
    /// Largest allowed value (numeric options).
    pub maximum: Option<u8>,
    /// Whether `null` is allowed (numeric options that may be switched off).
    pub nullable: bool,
}

/// Presets and options.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulesetsView {
    /// Every preset; `composite` is the default.
    pub items: Vec<PresetView>,
    /// Every option, with its allowed values and their sources.
    pub options: Vec<OptionView>,
}

/// A lesson section.
#[derive(Debug, Serialize, ToSchema)]
pub struct LessonSectionView {
    /// Stable id: `board`, `sticks`, `turn`, `north_creek`, `home`, `whip`,
    /// `dry_branches`, `winning`, `stopping`.
    #[schema(value_type = crate::schema::LessonSectionId)]
    pub id: String,
    /// Heading.
    pub title: String,
    /// The rule.
    pub text: String,
    /// Its sources.
    pub citations: Vec<CitationView>,
    /// Where the preset departs from the composite reconstruction here.
    pub departures: Vec<CitedTextView>,
}

/// A preset's rules as a narrated lesson.
#[derive(Debug, Serialize, ToSchema)]
pub struct LessonView {
    /// The preset.
    pub preset: Preset,
    /// Its title.
    pub title: String,
    /// The audience the text is written for.
    pub audience: Audience,
    /// What the preset is, cited.
    pub summary: CitedTextView,
    /// The options in force.
    pub options: OptionsView,
    /// Sections in teaching order.
    pub sections: Vec<LessonSectionView>,
}

fn departure_view(id: &str, n: Option<u8>) -> Option<CitedTextView> {
    crate::narration::departure(id, n).as_ref().map(Into::into)
}

/// Every option as the rules define it ([`option_specs`]): its values,
/// each with where it departs from the composite reconstruction, or its
/// bounds.
fn options_doc() -> Vec<OptionView> {
    option_specs()
        .iter()
        .map(|spec| match spec.kind {
            OptionKind::Choice {
                values, default, ..
            } => OptionView {
                name: spec.name.to_owned(),
                description: spec.description.to_owned(),
                default: default.into(),
                values: values
                    .iter()
                    .map(|&value| OptionValueView {
                        departure: (value != default)
                            .then(|| departure_view(&format!("{}.{value}", spec.name), None))
                            .flatten(),
                        value: value.to_owned(),
                    })
                    .collect(),
                minimum: None,
                maximum: None,
                nullable: false,
            },
            OptionKind::Count {
                min,
                max,
                default,
                nullable,
            } => OptionView {
                name: spec.name.to_owned(),
                description: spec.description.to_owned(),
                default: default.map_or(serde_json::Value::Null, Into::into),
                values: Vec::new(),
                minimum: Some(min),
                maximum: Some(max),
                nullable,
            },
        })
        .collect()
}

/// List every preset and option, with allowed values and sources.
///
/// Every preset and option, with allowed values and sources.
#[utoipa::path(operation_id = "list_rulesets", tag = "rulesets", responses((status = 200, description = "Presets and options", body = RulesetsView)))]
#[get("/v1/rulesets")]
pub async fn get_rulesets() -> HttpResponse {
    let presets = Preset::ALL
        .iter()
        .map(|&p| {
            let (title, summary) = preset_summary(p);
            let id: &str = p.into();
            PresetView {
                id: p,
                title,
                summary: (&summary).into(),
                options: p.options().into(),
                players_per_side: p.default_players(),
                lesson: format!("/v1/rulesets/{id}"),
            }
        })
        .collect();
    HttpResponse::Ok().json(RulesetsView {
        items: presets,
        options: options_doc(),
    })
}

/// Choosing the lesson's audience.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LessonQuery {
    /// `young`, `general` (default) or `scholar`.
    #[param(value_type = Option<Audience>)]
    audience: Option<String>,
}

impl LessonQuery {
    /// The audience asked for, `general` when absent.
    fn audience(&self) -> Result<Audience, ApiError> {
        match &self.audience {
            None => Ok(Audience::General),
            Some(a) => serde_json::from_value(serde_json::Value::String(a.clone())).map_err(|_| {
                ApiError::field(
                    "#/query/audience",
                    "must be one of: young, general, scholar",
                )
            }),
        }
    }
}

/// The lesson of `preset` for `audience`.
fn lesson_view(preset: Preset, audience: Audience) -> LessonView {
    let l = lesson(preset, audience);
    LessonView {
        preset,
        title: l.title,
        audience,
        summary: (&l.summary).into(),
        options: preset.options().into(),
        sections: l
            .sections
            .iter()
            .map(|s| LessonSectionView {
                id: s.id.clone(),
                title: s.title.clone(),
                text: s.text.clone(),
                citations: s.citations.iter().map(Into::into).collect(),
                departures: s.departures.iter().map(Into::into).collect(),
            })
            .collect(),
    }
}

/// Read a preset's rules as a narrated lesson.
///
/// A preset's rules as a narrated lesson.
#[utoipa::path(
    operation_id = "get_ruleset",
    tag = "rulesets",
    params(("preset" = Preset, Path, description = "The preset"), LessonQuery),
    responses(
        (status = 200, description = "The lesson", body = LessonView),
        (status = 400, description = "Unknown audience", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such preset", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/rulesets/{preset}")]
pub async fn get_ruleset(
    PresetPath(preset): PresetPath,
    query: web::Query<LessonQuery>,
) -> Result<HttpResponse, ApiError> {
    let audience = query.audience()?;
    Ok(HttpResponse::Ok().json(lesson_view(preset, audience)))
}
