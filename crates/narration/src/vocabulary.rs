//! The words every part of the narration shares: who it is written for,
//! citations, segments and narrations, the cast's names and a move's context.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::rules::{Event, Options, Score, Seat, Side, Throw};

/// Who the narration is written for. Its names (`young`, `general`,
/// `scholar`) are the same in the API, in [`Audience::key`] and in `Display`.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    Default,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Audience {
    /// Ages 7-10: short sentences, no jargon, every Kiowa word explained.
    Young,
    /// Everyone else (default).
    #[default]
    General,
    /// Says where the sources disagree and which reading the ruleset
    /// follows, with page-level citations.
    Scholar,
}

impl Audience {
    /// All audiences.
    pub const ALL: [Audience; 3] = [Audience::Young, Audience::General, Audience::Scholar];

    /// The audience's name as written in the API (`young`, `general`,
    /// `scholar`).
    #[must_use]
    pub fn key(self) -> &'static str {
        self.into()
    }

    /// The audience with this name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

/// How much a move's narration tells. Its names (`lesson`, `brief`,
/// `full`) are the same in the API, in [`Detail::key`] and in `Display`.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    Default,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::Display,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Detail {
    /// For a lesson (default): what happened, each rule when it first acts
    /// (again only after a long gap) and each fact at most once a game, at
    /// a moment it fits; the first move says what game is played.
    #[default]
    Lesson,
    /// What happened and who is next, in one cited sentence: for captions
    /// and chatbots.
    Brief,
    /// Every event in full and every rule behind them every time, with the
    /// lesson's facts: for reference.
    Full,
}

impl Detail {
    /// All detail levels, the default first.
    pub const ALL: [Detail; 3] = [Detail::Lesson, Detail::Brief, Detail::Full];

    /// The level's name as written in the API.
    #[must_use]
    pub fn key(self) -> &'static str {
        self.into()
    }

    /// The level with this name.
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        text.parse().ok()
    }
}

/// A pointer into the bibliography: `source` is an id of
/// `GET /v1/sources`, `locator` the pages where they were seen, or where
/// the source's record says they come from (e.g. `p. 641`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Citation {
    /// Id of a source in the bibliography.
    pub source: String,
    /// Pages or section, where the bibliography gives them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locator: Option<String>,
}

impl Citation {
    /// Whether the pages in `locator` were seen by those who wrote the
    /// narration: `Some(false)` for pages another source reports (a Ludii
    /// file's source line, the Wikipedia article's note) that nobody here
    /// has seen, `Some(true)` for pages seen in a copy of the source, `None`
    /// without a locator. Read from the bibliography's record of the source
    /// (`locators_seen`).
    #[must_use]
    pub fn locator_seen(&self) -> Option<bool> {
        let locator = self.locator.as_deref()?;
        let seen = crate::catalogue::catalogue()
            .source(&self.source)
            .and_then(|s| s.csl.get("custom"))
            .and_then(|c| c.get("locators_seen"))
            .and_then(serde_json::Value::as_array)
            .is_some_and(|l| l.iter().any(|x| x == locator));
        Some(seen)
    }

    /// The citation as a reader sees it: the source's id, its pages, and
    /// "(pages not seen)" after pages nobody here has seen.
    #[must_use]
    pub fn label(&self) -> String {
        match (&self.locator, self.locator_seen()) {
            (Some(l), Some(false)) => format!("{}, {l} (pages not seen)", self.source),
            (Some(l), _) => format!("{}, {l}", self.source),
            (None, _) => self.source.clone(),
        }
    }
}

/// What a segment says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SegmentKind {
    /// What happened.
    Event,
    /// The rule that made it happen.
    Rule,
    /// Cultural context.
    Context,
    /// What game is played and where its rules come from (the first move).
    Framing,
    /// What the move did to the chances of winning, from this service's
    /// own exact computation (told when read, never stored).
    Odds,
}

/// One narrated sentence or two, with its sources.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    /// Event, rule or context.
    pub kind: SegmentKind,
    /// The text, plain Unicode.
    pub text: String,
    /// Its sources (never empty).
    pub citations: Vec<Citation>,
    /// The rule id behind an `event` or `rule` segment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The fact id of a `context` segment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fact: Option<String>,
    /// A `rule` segment that restates its rule briefly (the rule was stated
    /// in full not long before).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub brief: bool,
}

/// A game's memory of the rules stated so far, by rule id (see
/// [`Narration::rules_stated`]), kept with the game.
pub type RulesStated = BTreeMap<String, RuleStated>;

/// When a rule was last stated in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleStated {
    /// The move that last stated it, in full or briefly.
    pub last: u32,
    /// The move that last stated it in full (0: never).
    pub full: u32,
    /// How many times it has been restated briefly since then (each time
    /// in another of its short forms; 0 in games narrated before this was
    /// counted).
    #[serde(default)]
    pub briefs: u32,
}

/// A move's narration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Narration {
    /// The audience it was written for.
    pub audience: Audience,
    /// Its segments, in reading order.
    pub segments: Vec<Segment>,
    /// Rules stated so far in the game, up to and including this move: the
    /// memory the next move's narration starts from.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rules_stated: RulesStated,
}

impl Narration {
    /// The context fact this narration told, if any.
    #[must_use]
    pub fn fact(&self) -> Option<&str> {
        self.segments.iter().find_map(|s| s.fact.as_deref())
    }

    /// The ids of the rules stated in `rule` segments, in order.
    pub fn rules(&self) -> impl Iterator<Item = &str> {
        self.segments
            .iter()
            .filter(|s| s.kind == SegmentKind::Rule)
            .filter_map(|s| s.rule.as_deref())
    }
}

/// The names the narration uses: each side's name and its players' names
/// (a side with one player uses the side's name for her).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cast {
    /// Side names, A first.
    pub sides: [String; 2],
    /// Player names per side, A first.
    pub players: [Vec<String>; 2],
}

impl Cast {
    /// The name of `side`.
    pub(super) fn side(&self, side: Side) -> &str {
        &self.sides[side.index()]
    }

    /// The name of the player at `seat` (her side's name if she has none).
    pub(super) fn player(&self, seat: Seat) -> &str {
        self.players[seat.side.index()]
            .get(usize::from(seat.player))
            .map_or_else(|| self.side(seat.side), String::as_str)
    }

    /// Whether the player at `seat` is known by her side's name (a side of
    /// one player named after it): then the narration names her once.
    pub(super) fn is_solo(&self, seat: Seat) -> bool {
        self.player(seat) == self.side(seat.side)
    }

    /// Whether a side has more than one player.
    pub(super) fn has_teams(&self) -> bool {
        self.players.iter().any(|p| p.len() > 1)
    }
}

/// Everything one move's narration depends on.
#[derive(Clone, Copy, Debug)]
pub struct MoveContext<'a> {
    /// The ruleset's options.
    pub options: &'a Options,
    /// Names.
    pub cast: &'a Cast,
    /// Who reads it.
    pub audience: Audience,
    /// How much it tells.
    pub detail: Detail,
    /// 1-based move number, for choosing phrasings.
    pub move_number: u32,
    /// Who threw.
    pub seat: Seat,
    /// The mover's awl before the move, own numbering.
    pub from: u8,
    /// The mover's awl after every consequence of the move, own numbering.
    pub to: u8,
    /// The throw.
    pub throw: &'a Throw,
    /// Its score.
    pub score: &'a Score,
    /// What happened.
    pub events: &'a [Event],
    /// Fact ids this game has told already, oldest first.
    pub told: &'a [String],
    /// The previous move's narration (`None` on the first move): the rules
    /// it stated are not repeated word for word, and its memory of the
    /// rules stated so far carries on.
    pub previous: Option<&'a Narration>,
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::Audience;

    #[test]
    fn audience_names_are_the_api_names() {
        for a in Audience::ALL {
            assert_eq!(serde_json::to_value(a).unwrap(), a.key());
            assert_eq!(a.to_string(), a.key());
            assert_eq!(Audience::parse(a.key()), Some(a));
        }
        assert_eq!(Audience::parse("Young"), None);
        assert_eq!(Audience::parse("everyone"), None);
    }
}
