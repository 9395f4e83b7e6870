//! The tools' arguments: concrete types with their JSON Schemas (every
//! choice an enum, no free JSON, no nullable types), and the extractor that
//! answers a malformed argument in the product's words rather than the
//! deserializer's. A description says what the schema does not: no bounds
//! the schema states, and none for a `game_id` (`#[schemars(description =
//! "")]`: its name says it), which keeps `tools/list` within its budget
//! (tests/it/mcp/text.rs).

use std::borrow::Cow;
use std::str::FromStr;

use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::ToolCallContext;
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use strum::{IntoEnumIterator, VariantNames};

use crate::narration::{Audience, Detail, RuleId};
use crate::rules::{Face, Preset, Side, SpinnerSector};

/// A closed set of names: a preset, a side, a face, an audience, a detail
/// level, a rule.
pub trait Choices: FromStr + Copy + 'static {
    /// What the schema calls the set.
    const NAME: &'static str;
    /// Every name, as the API writes them.
    fn names() -> Vec<&'static str>;
}

macro_rules! variant_choices {
    ($($t:ty => $name:literal),* $(,)?) => {$(
        impl Choices for $t {
            const NAME: &'static str = $name;
            fn names() -> Vec<&'static str> {
                <$t as VariantNames>::VARIANTS.to_vec()
            }
        }
    )*};
}

variant_choices!(Preset => "Preset", Side => "Side", Face => "Face", SpinnerSector => "SpinnerSector");

impl Choices for Audience {
    const NAME: &'static str = "Audience";
    fn names() -> Vec<&'static str> {
        Audience::ALL.iter().map(|&a| a.into()).collect()
    }
}

impl Choices for Detail {
    const NAME: &'static str = "Detail";
    fn names() -> Vec<&'static str> {
        Detail::ALL.map(Detail::key).to_vec()
    }
}

impl Choices for RuleId {
    const NAME: &'static str = "RuleId";
    fn names() -> Vec<&'static str> {
        RuleId::iter().map(RuleId::key).collect()
    }
}

/// One name of a closed set, or none given (the tool's default). Its schema
/// is the plain string enum, never nullable.
#[derive(Clone, Copy, Debug)]
pub struct Choice<T>(pub Option<T>);

impl<T> Default for Choice<T> {
    fn default() -> Self {
        Self(None)
    }
}

impl<T: Choices> Choice<T> {
    /// The value given, or `default`.
    pub fn or(self, default: T) -> T {
        self.0.unwrap_or(default)
    }
}

fn one_of<T: Choices>() -> String {
    format!("must be one of: {}", T::names().join(", "))
}

impl<'de, T: Choices> Deserialize<'de> for Choice<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // A missing argument keeps the deserializer's word for it, which
        // `parse` turns into "required".
        let raw = Cow::<str>::deserialize(d).map_err(|e| {
            if e.to_string().starts_with("missing field") {
                e
            } else {
                serde::de::Error::custom(one_of::<T>())
            }
        })?;
        raw.parse()
            .map(|v| Self(Some(v)))
            .map_err(|_| serde::de::Error::custom(format!("{}, got {raw:?}", one_of::<T>())))
    }
}

impl<T: Choices> JsonSchema for Choice<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed(T::NAME)
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "enum": T::names() })
    }
}

/// A list of stick faces: what a physical throw showed.
#[derive(Clone, Debug, Default)]
pub struct Faces(pub Vec<Face>);

impl<'de> Deserialize<'de> for Faces {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Vec::<Choice<Face>>::deserialize(d)?;
        Ok(Self(raw.into_iter().filter_map(|c| c.0).collect()))
    }
}

impl JsonSchema for Faces {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Faces")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "array",
            "items": { "type": "string", "enum": Face::names() },
            "minItems": 4,
            "maxItems": 4
        })
    }
}

/// The most moves one `list_moves` call gives.
pub const MAX_MOVES: u32 = 20;

/// A whole number from `MIN` to `MAX`: its schema states both bounds (the
/// maximum left out when it is only the type's), and a value out of them is
/// refused in the product's words, naming the bounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Whole<const MIN: u32, const MAX: u32>(pub u32);

impl<const MIN: u32, const MAX: u32> Whole<MIN, MAX> {
    fn bounds() -> String {
        if MAX == u32::MAX {
            format!("a whole number, {MIN} or more")
        } else {
            format!("a whole number from {MIN} to {MAX}")
        }
    }
}

impl<'de, const MIN: u32, const MAX: u32> Deserialize<'de> for Whole<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<const MIN: u32, const MAX: u32>;
        impl<const MIN: u32, const MAX: u32> Visit<MIN, MAX> {
            fn check<E: serde::de::Error>(got: f64, shown: &str) -> Result<Whole<MIN, MAX>, E> {
                if got.fract() == 0.0 && got >= f64::from(MIN) && got <= f64::from(MAX) {
                    // In bounds and whole, so it fits.
                    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                    return Ok(Whole(got as u32));
                }
                Err(E::custom(format!(
                    "must be {}, got {shown}",
                    Whole::<MIN, MAX>::bounds()
                )))
            }
        }
        impl<'de, const MIN: u32, const MAX: u32> serde::de::Visitor<'de> for Visit<MIN, MAX> {
            type Value = Whole<MIN, MAX>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&Whole::<MIN, MAX>::bounds())
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
                #[allow(clippy::cast_precision_loss)]
                Self::check(v as f64, &v.to_string())
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
                #[allow(clippy::cast_precision_loss)]
                Self::check(v as f64, &v.to_string())
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Self::Value, E> {
                Self::check(v, &v.to_string())
            }
        }
        d.deserialize_any(Visit::<MIN, MAX>)
    }
}

impl<const MIN: u32, const MAX: u32> JsonSchema for Whole<MIN, MAX> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Owned(format!("Whole{MIN}To{MAX}"))
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        if MAX == u32::MAX {
            json_schema!({ "type": "integer", "minimum": MIN })
        } else {
            json_schema!({ "type": "integer", "minimum": MIN, "maximum": MAX })
        }
    }
}

/// The tool's arguments, or what is wrong with them in the product's words
/// (the tool answers that as an error result the model can act on). The
/// name is the one the SDK's macros look for to take the input schema.
pub struct Parameters<T>(pub Result<T, String>);

impl<T: JsonSchema> JsonSchema for Parameters<T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = T::json_schema(generator);
        if let Some(object) = schema.as_object_mut() {
            portable(object);
        }
        schema
    }
}

/// Drop the integer widths schemars writes as `format` (`uint8`,
/// `uint32`, ...): no JSON Schema dialect defines them, and clients warn of
/// each. The bounds that matter are stated as `minimum` or in the
/// description.
pub fn portable(object: &mut serde_json::Map<String, serde_json::Value>) {
    let width = object
        .get("format")
        .and_then(serde_json::Value::as_str)
        .is_some_and(|f| f.starts_with("uint") || f.starts_with("int"));
    if width {
        object.remove("format");
    }
    for value in object.values_mut() {
        match value {
            serde_json::Value::Object(o) => portable(o),
            serde_json::Value::Array(a) => {
                for v in a {
                    if let serde_json::Value::Object(o) = v {
                        portable(o);
                    }
                }
            }
            _ => {}
        }
    }
}

impl<S, T: DeserializeOwned> FromContextPart<ToolCallContext<'_, S>> for Parameters<T> {
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, rmcp::ErrorData> {
        let arguments = context.arguments.take().unwrap_or_default();
        Ok(Self(parse(serde_json::Value::Object(arguments))))
    }
}

/// Parse a tool's arguments, naming the argument at fault.
///
/// # Errors
/// What is wrong, e.g. "`preset`: must be one of: composite, ...".
pub fn parse<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, String> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let message = plain(&e.into_inner().to_string());
        if let Some(field) = message
            .strip_prefix("missing field `")
            .and_then(|m| m.strip_suffix('`'))
        {
            return format!("`{field}`: required, and not given");
        }
        if path == "." {
            message
        } else {
            format!("`{path}`: {message}")
        }
    })
}

/// The deserializer's words for a wrong type, said as the product says
/// them: "a whole number" rather than "u32".
fn plain(message: &str) -> String {
    let mut out = message.to_owned();
    for (rust, plain) in [
        ("expected u8", "expected a whole number"),
        ("expected u16", "expected a whole number"),
        ("expected u32", "expected a whole number"),
        ("expected u64", "expected a whole number"),
        ("expected a boolean", "expected true or false"),
        ("expected a string", "expected a text"),
        ("expected a sequence", "expected a list"),
        ("expected struct ", "expected an object: "),
        ("invalid type: ", ""),
    ] {
        out = out.replace(rust, plain);
    }
    out
}

/// No arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// `create_game`: every argument optional.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct CreateGameArgs {
    /// Default `composite`.
    pub preset: Choice<Preset>,
    /// Default "Side A".
    #[schemars(with = "String", length(min = 1, max = 40))]
    pub side_a: Option<String>,
    /// Default "Side B".
    #[schemars(with = "String", length(min = 1, max = 40))]
    pub side_b: Option<String>,
    /// Names in throwing order (default: one, or the ruleset's team).
    #[schemars(length(min = 1, max = 8), inner(length(min = 1, max = 40)))]
    pub players_a: Vec<String>,
    /// As `players_a`.
    #[schemars(length(min = 1, max = 8), inner(length(min = 1, max = 40)))]
    pub players_b: Vec<String>,
    /// Who throws first (default `A`).
    pub first: Choice<Side>,
    /// Same seed, same throws (default: a secret one).
    #[schemars(with = "String", length(min = 1, max = 128))]
    pub seed: Option<String>,
    /// Default `general`; `young`: ages 7-10.
    pub audience: Choice<Audience>,
    /// Default `lesson`: each rule when it first acts; `brief`: a
    /// sentence; `full`: every rule always.
    pub detail: Choice<Detail>,
    /// Seated: each side's and the host's token, shown once; throws
    /// then need one.
    pub seats: bool,
    /// With `seats`: sides' tokens may report throws (default: the
    /// host's only).
    pub sides_report_throws: bool,
}

/// The most throws one `throw` call plays.
pub const MAX_THROWS: u32 = crate::service::MAX_RUN_THROWS;

/// Where a run of throws stops before its count: after the throw that
/// brings something other than a plain move, that ends the turn, or that
/// ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Until {
    /// Anything but a plain move: a fall, a whip, a circuit, a counter
    /// paid, a dry branch, a lost or skipped turn, the end.
    Event,
    /// The other side is to throw.
    TurnEnd,
    /// The game is over.
    GameEnd,
}

impl Choices for Until {
    const NAME: &'static str = "Until";
    fn names() -> Vec<&'static str> {
        vec!["event", "turn_end", "game_end"]
    }
}

/// `throw`: one throw or a run of them.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ThrowArgs {
    /// The game's id.
    #[schemars(description = "")]
    pub game_id: String,
    /// Seated game: the mover's or the host's (a side's ends a run at
    /// the other's turn).
    #[serde(default)]
    pub token: String,
    /// Default 1; with `until`, 500.
    #[serde(default)]
    #[schemars(with = "Whole<1, MAX_THROWS>")]
    pub count: Option<Whole<1, MAX_THROWS>>,
    /// Stop after the throw that brings an `event` (not a plain move),
    /// `turn_end` or `game_end`.
    #[serde(default)]
    pub until: Choice<Until>,
    /// `lesson`, `brief` or `full` (default: the game's).
    #[serde(default)]
    pub detail: Choice<Detail>,
}

/// `stop_game`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StopArgs {
    /// The game's id.
    #[schemars(description = "")]
    pub game_id: String,
    /// Seated game: the host's (not a side's).
    #[serde(default)]
    pub token: String,
}

/// `report_throw`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportThrowArgs {
    /// The game's id.
    #[schemars(description = "")]
    pub game_id: String,
    /// Seated game: the host's, or the mover's if sides report.
    #[serde(default)]
    pub token: String,
    /// Stick games: the faces, the sahe (marked stick) last.
    #[serde(default)]
    pub sticks: Faces,
    /// Spinner games: where it stopped.
    #[serde(default)]
    pub spinner: Choice<SpinnerSector>,
}

/// A game.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameArgs {
    /// The game's id.
    #[schemars(description = "")]
    pub game_id: String,
}

fn default_limit() -> Whole<1, MAX_MOVES> {
    Whole(5)
}

/// `list_moves`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListMovesArgs {
    /// The game's id.
    #[schemars(description = "")]
    pub game_id: String,
    /// Start after this move (default 0: the first).
    #[serde(default)]
    pub after: Whole<0, { u32::MAX }>,
    /// Default 5.
    #[serde(default = "default_limit")]
    pub limit: Whole<1, MAX_MOVES>,
    /// `lesson`, `brief` or `full` (default: the game's).
    #[serde(default)]
    pub detail: Choice<Detail>,
}

/// `get_board`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardArgs {
    /// The game's id.
    #[schemars(description = "")]
    pub game_id: String,
    /// As this move left it (default 0: now).
    #[serde(rename = "move", default)]
    pub move_n: Whole<0, { u32::MAX }>,
}

/// `explain_rule`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleArgs {
    /// The `rule` a narration names.
    pub rule_id: Choice<RuleId>,
    /// Ruleset (default `composite`).
    #[serde(default)]
    pub preset: Choice<Preset>,
    /// A game instead of `preset`: its ruleset, teams and audience.
    #[serde(default)]
    pub game_id: String,
    /// Default `general`, or the game's.
    #[serde(default)]
    pub audience: Choice<Audience>,
}

/// `get_fact`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FactArgs {
    /// The `fact` a narration names.
    pub fact_id: String,
    /// Default `general`.
    #[serde(default)]
    pub audience: Choice<Audience>,
}

/// `get_lesson`: every argument optional.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct LessonArgs {
    /// The ruleset (default `composite`).
    pub preset: Choice<Preset>,
    /// Default `general`.
    pub audience: Choice<Audience>,
}

/// A bibliography format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SourceFormat {
    /// A CSL-JSON item.
    #[default]
    Csl,
    /// A BibTeX entry.
    Bibtex,
}

impl FromStr for SourceFormat {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "csl" => Ok(Self::Csl),
            "bibtex" => Ok(Self::Bibtex),
            _ => Err(()),
        }
    }
}

impl Choices for SourceFormat {
    const NAME: &'static str = "SourceFormat";
    fn names() -> Vec<&'static str> {
        vec!["csl", "bibtex"]
    }
}

/// `get_source`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourceArgs {
    /// A citation's `source`, e.g. `culin1907`.
    pub source_id: String,
    /// Default `csl` (CSL-JSON).
    #[serde(default)]
    pub format: Choice<SourceFormat>,
}

/// `search_glossary`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GlossaryArgs {
    /// A word in terms or meanings, e.g. `sahe`.
    #[schemars(length(min = 1, max = 40))]
    pub query: String,
    /// Default `general`; `young`: simpler meanings.
    #[serde(default)]
    pub audience: Choice<Audience>,
}

/// A game id as a tool's `game_id` argument gives it (trimmed), or what is
/// wrong with it.
pub(crate) fn game_id(raw: &str) -> Result<crate::domain::GameId, String> {
    crate::domain::GameId::parse(raw.trim()).map_err(|e| format!("`game_id`: {e}"))
}

/// A seat token as a tool's `token` argument gives it; `None` when empty.
pub(crate) fn token(raw: String) -> Option<crate::domain::SeatToken> {
    let t = raw.trim();
    (!t.is_empty()).then(|| crate::domain::SeatToken::from_sent(t.to_owned()))
}
