//! The presets and options, and each preset's rules as a narrated lesson.

use actix_web::{HttpResponse, get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::dto::{CitationView, OptionsView};
use super::problem::{ApiError, Problem};
use super::schema::values;
use crate::narration::{Audience, CitedText, lesson, preset_summary};
use crate::rules::{
    Board, DeadlyNorthBank, DryBranch, EndCheck, Options, Overshoot, OwnLastSpace, Preset,
    ThrowTable, TurnOrder,
};

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
    /// The composite reconstruction's value.
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
    pub presets: Vec<PresetView>,
    /// Every option, with its allowed values and their sources.
    pub options: Vec<OptionView>,
}

/// A lesson section.
#[derive(Debug, Serialize, ToSchema)]
pub struct LessonSectionView {
    /// Stable id: `board`, `sticks`, `turn`, `north_creek`, `home`, `whip`,
    /// `dry_branches`, `winning`, `stopping`.
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

fn enum_option<T: Serialize + PartialEq + Copy>(
    name: &str,
    description: &str,
    all: &[T],
    default: T,
) -> OptionView {
    let names = values(all);
    OptionView {
        name: name.to_owned(),
        description: description.to_owned(),
        default: serde_json::to_value(default).unwrap_or_default(),
        values: all
            .iter()
            .zip(names)
            .map(|(v, value)| OptionValueView {
                departure: (*v != default)
                    .then(|| departure_view(&format!("{name}.{value}"), None))
                    .flatten(),
                value,
            })
            .collect(),
        minimum: None,
        maximum: None,
        nullable: false,
    }
}

fn options_doc() -> Vec<OptionView> {
    let d = Options::default();
    vec![
        enum_option(
            "board",
            "The shape of the track.",
            &[Board::Circle40, Board::Square28],
            d.board,
        ),
        enum_option(
            "throw_table",
            "How a throw is scored.",
            &ThrowTable::ALL,
            d.throw_table,
        ),
        enum_option(
            "deadly_north_bank",
            "Which bank of the north creek makes the awl fall in.",
            &[DeadlyNorthBank::Near, DeadlyNorthBank::Far],
            d.deadly_north_bank,
        ),
        enum_option(
            "own_last_space",
            "What landing exactly on own last space (own 40) does.",
            &[
                OwnLastSpace::FallsIn,
                OwnLastSpace::Ordinary,
                OwnLastSpace::CompletesCircuit,
            ],
            d.own_last_space,
        ),
        enum_option(
            "overshoot",
            "What a throw that would carry the awl past home does.",
            &[Overshoot::CarryOn, Overshoot::NoMove],
            d.overshoot,
        ),
        enum_option(
            "dry_branch",
            "What landing on a dry branch does.",
            &[
                DryBranch::NoEffect,
                DryBranch::LoseThrow,
                DryBranch::CrossOver,
            ],
            d.dry_branch,
        ),
        OptionView {
            name: "counters_per_side".to_owned(),
            description: "Counters each side holds at the start.".to_owned(),
            default: d.counters_per_side.into(),
            values: Vec::new(),
            minimum: Some(Options::MIN_COUNTERS),
            maximum: Some(Options::MAX_COUNTERS),
            nullable: false,
        },
        enum_option(
            "turn_order",
            "How turns pass between the players of two teams.",
            &[TurnOrder::SideBlocks, TurnOrder::Alternate],
            d.turn_order,
        ),
        OptionView {
            name: "circuits_to_win".to_owned(),
            description: "Circuits that win outright; null: only counters decide.".to_owned(),
            default: serde_json::Value::Null,
            values: Vec::new(),
            minimum: Some(1),
            maximum: Some(Options::MAX_CIRCUITS_TO_WIN),
            nullable: true,
        },
        enum_option(
            "end_check",
            "When counters end the game.",
            &[EndCheck::Immediate, EndCheck::AfterMove],
            d.end_check,
        ),
    ]
}

/// Every preset and option, with allowed values and sources.
#[utoipa::path(tag = "rulesets", responses((status = 200, description = "Presets and options", body = RulesetsView)))]
#[get("/v1/rulesets")]
pub async fn get_rulesets() -> HttpResponse {
    let presets = Preset::ALL
        .iter()
        .map(|&p| {
            let (title, summary) = preset_summary(p);
            let id = values(&[p]).pop().unwrap_or_default();
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
        presets,
        options: options_doc(),
    })
}

/// The preset named in a path, or a 404 problem listing the presets.
///
/// # Errors
/// 404 `preset-not-found` for any other name.
pub(super) fn preset_from_path(name: &str) -> Result<Preset, ApiError> {
    serde_json::from_value(serde_json::Value::String(name.to_owned())).map_err(|_| {
        ApiError::new(
            actix_web::http::StatusCode::NOT_FOUND,
            "preset-not-found",
            "Preset not found",
            format!(
                "no preset is called that; the presets are: {}",
                values(&Preset::ALL).join(", ")
            ),
        )
    })
}

/// Choosing the lesson's audience.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LessonQuery {
    /// `young`, `general` (default) or `scholar`.
    #[param(value_type = Option<Audience>)]
    audience: Option<String>,
}

/// A preset's rules as a narrated lesson.
#[utoipa::path(
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
    preset: web::Path<String>,
    query: web::Query<LessonQuery>,
) -> Result<HttpResponse, ApiError> {
    let preset = preset_from_path(&preset)?;
    let audience: Audience = match &query.audience {
        None => Audience::General,
        Some(a) => serde_json::from_value(serde_json::Value::String(a.clone())).map_err(|_| {
            ApiError::field(
                "#/query/audience",
                "must be one of: young, general, scholar",
            )
        })?,
    };
    let l = lesson(preset, audience);
    Ok(HttpResponse::Ok().json(LessonView {
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
    }))
}
