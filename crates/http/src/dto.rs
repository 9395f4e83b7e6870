//! Views several resources share: options, seats, probabilities, counters
//! and cited narration. Each resource's own bodies sit next to its handlers.

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::Setup;
use crate::narration::{Audience, Citation, Narration, Seen, Segment, SegmentKind};
use zohn_ahl_rules::{Options, Preset, Seat, Side};

/// The resolved options of a game's ruleset, written as the rules write
/// them; its schema is built from the rules' one list of options
/// (`http/schema.rs`).
#[derive(Debug, Serialize)]
#[serde(transparent)]
pub struct OptionsView(Options);

impl From<Options> for OptionsView {
    fn from(options: Options) -> Self {
        Self(options)
    }
}

impl From<OptionsView> for Options {
    fn from(view: OptionsView) -> Self {
        view.0
    }
}

/// As its schema says: every option, and no other field (the rules' own
/// reading fills a missing option with its default, for games stored before
/// the option existed).
impl<'de> serde::Deserialize<'de> for OptionsView {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        static NAMES: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
            zohn_ahl_rules::option_specs()
                .iter()
                .map(|spec| spec.name)
                .collect()
        });
        let object = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
        if let Some(missing) = NAMES.iter().find(|name| !object.contains_key(**name)) {
            return Err(D::Error::missing_field(missing));
        }
        if let Some(unknown) = object.keys().find(|k| !NAMES.contains(&k.as_str())) {
            return Err(D::Error::unknown_field(unknown, &NAMES));
        }
        // A count may come as JSON Schema's integer admits it: `5` or `5.0`.
        let object = object
            .into_iter()
            .map(|(name, value)| match value.as_f64() {
                Some(f)
                    if !value.is_i64() && !value.is_u64() && f.fract() == 0.0 && f.abs() < 1e15 =>
                {
                    #[allow(clippy::cast_possible_truncation)]
                    let whole = f as i64;
                    (name, serde_json::Value::from(whole))
                }
                _ => (name, value),
            })
            .collect();
        serde_json::from_value(serde_json::Value::Object(object))
            .map(Self)
            .map_err(D::Error::custom)
    }
}

/// A game's ruleset: its preset and resolved options.
#[derive(Debug, Serialize, ToSchema)]
pub struct RulesetView {
    /// The preset the options started from.
    pub preset: Preset,
    /// The options in force.
    pub options: OptionsView,
}

/// A player's seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatView {
    /// Her side.
    pub side: Side,
    /// Her place in the side's team, 1-based.
    #[schema(minimum = 1, maximum = 8)]
    pub player: u8,
    /// Her name.
    pub name: String,
}

/// The view of `seat` in a game of `setup`.
#[must_use]
pub fn seat_view(setup: &Setup, seat: Seat) -> SeatView {
    SeatView {
        side: seat.side,
        player: seat.player + 1,
        name: setup.player_name(seat).to_owned(),
    }
}

/// An exact probability.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProbabilityView {
    /// Numerator.
    #[schema(example = 3)]
    pub numerator: u32,
    /// Denominator.
    #[schema(example = 16)]
    pub denominator: u32,
    /// The same as a decimal.
    #[schema(example = 0.1875)]
    pub decimal: f64,
}

impl From<zohn_ahl_rules::Odds> for ProbabilityView {
    fn from(o: zohn_ahl_rules::Odds) -> Self {
        Self {
            numerator: o.numerator,
            denominator: o.denominator,
            decimal: o.as_f64(),
        }
    }
}

/// Counters held by each side.
#[derive(Debug, Serialize, ToSchema)]
pub struct CountersView {
    /// Side A's counters.
    pub a: u8,
    /// Side B's counters.
    pub b: u8,
}

/// A source citation.
#[derive(Debug, Serialize, ToSchema)]
pub struct CitationView {
    /// An id of `GET /v1/sources`.
    #[schema(example = "culin1907")]
    pub source: String,
    /// Pages, where known.
    #[schema(example = "pp. 124-130")]
    pub locator: Option<String>,
    /// Whether the pages in `locator` were seen by those who wrote the
    /// text, in a copy of the source: `false` for pages another source
    /// reports (a Ludii file's source line, the Wikipedia article's note)
    /// or quotes; null without a locator. `seen` says which.
    #[schema(example = false)]
    pub locator_seen: Option<bool>,
    /// Whether what is cited (its pages, or the source where no pages are
    /// given) was seen by those who wrote the text, from the source's
    /// record in `GET /v1/sources`.
    pub seen: Seen,
    /// What a reader is told beside the citation when it was not seen
    /// directly ("known only from another source", "as another source
    /// quotes it"); null when it was seen.
    #[schema(example = "known only from another source")]
    pub caveat: Option<&'static str>,
}

impl From<&Citation> for CitationView {
    fn from(c: &Citation) -> Self {
        let seen = c.seen();
        Self {
            source: c.source.clone(),
            locator: c.locator.clone(),
            locator_seen: c.locator_seen(),
            seen,
            caveat: seen.caveat(),
        }
    }
}

/// One narrated segment.
#[derive(Debug, Serialize, ToSchema)]
pub struct SegmentView {
    /// `event`, `rule` or `context`.
    pub kind: SegmentKind,
    /// The text.
    pub text: String,
    /// Its sources (at least one).
    pub citations: Vec<CitationView>,
    /// For `event` and `rule` segments: the id of the rule behind it
    /// (`null` for a `context` segment).
    pub rule: Option<String>,
    /// For `context` segments: the stable id of the fact told (`null`
    /// otherwise).
    pub fact: Option<String>,
}

impl From<&Segment> for SegmentView {
    fn from(s: &Segment) -> Self {
        Self {
            kind: s.kind,
            text: s.text.clone(),
            citations: s.citations.iter().map(Into::into).collect(),
            rule: s.rule.clone(),
            fact: s.fact.clone(),
        }
    }
}

/// A move's narration.
#[derive(Debug, Serialize, ToSchema)]
pub struct NarrationView {
    /// Who it is written for.
    pub audience: Audience,
    /// Segments in reading order.
    pub segments: Vec<SegmentView>,
}

impl From<&Narration> for NarrationView {
    fn from(n: &Narration) -> Self {
        Self {
            audience: n.audience,
            segments: n.segments.iter().map(Into::into).collect(),
        }
    }
}
