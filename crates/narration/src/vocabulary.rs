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
    /// Whether what this citation points at was seen by those who wrote
    /// the narration, read from the bibliography's record of the source:
    /// pages in its `locators_seen` were seen, pages in `locators_quoted`
    /// are known through another source's quotation, and any other pages
    /// are reported by another source (a Ludii file's source line, the
    /// Wikipedia article's note) and were not seen. Without pages, the
    /// source's own `read` decides.
    #[must_use]
    pub fn seen(&self) -> Seen {
        let source = crate::catalogue::catalogue().source(&self.source);
        let record = source.and_then(|s| s.csl.get("custom"));
        let listed = |key: &str, locator: &str| {
            record.and_then(|c| c.get(key)).is_some_and(|l| match l {
                serde_json::Value::Array(l) => l.iter().any(|x| x == locator),
                serde_json::Value::Object(l) => l.contains_key(locator),
                _ => false,
            })
        };
        match self.locator.as_deref() {
            Some(l) if listed("locators_seen", l) => Seen::Seen,
            Some(l) if listed("locators_quoted", l) => Seen::Quoted,
            Some(_) => Seen::NotSeen,
            None => match source.map_or(Reading::NotRead, crate::catalogue::Source::reading) {
                Reading::Whole | Reading::Part => Seen::Seen,
                Reading::Quoted => Seen::Quoted,
                Reading::NotRead => Seen::NotSeen,
            },
        }
    }

    /// Whether the pages in `locator` were seen (in a copy of the source,
    /// not through another's quotation or report); `None` without a
    /// locator.
    #[must_use]
    pub fn locator_seen(&self) -> Option<bool> {
        self.locator.as_ref()?;
        Some(self.seen() == Seen::Seen)
    }

    /// The citation as a reader sees it: the source's id, its pages, and
    /// in brackets what a reader is told when it was not seen directly
    /// ([`Seen::caveat`]).
    #[must_use]
    pub fn label(&self) -> String {
        let mut label = self.source.clone();
        if let Some(l) = &self.locator {
            label.push_str(", ");
            label.push_str(l);
        }
        if let Some(caveat) = self.seen().caveat() {
            label.push_str(" (");
            label.push_str(caveat);
            label.push(')');
        }
        label
    }
}

/// How much of a source those who wrote the narration read: its
/// bibliography record's `custom.read`.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Reading {
    /// Read whole.
    Whole,
    /// Read in part (its record says which pages).
    Part,
    /// Not read itself: known through another source's quotation.
    Quoted,
    /// Not read: known only from other sources' mentions of it.
    NotRead,
}

impl Reading {
    /// Every value, in the order of the schema.
    pub const ALL: [Self; 4] = [Self::Whole, Self::Part, Self::Quoted, Self::NotRead];

    /// The value's name in the API and in the bibliography.
    #[must_use]
    pub fn key(self) -> &'static str {
        self.into()
    }
}

/// Whether what a citation points at (its pages, or the source where no
/// pages are given) was seen by those who wrote the narration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Seen {
    /// Seen in a copy of the source.
    Seen,
    /// Known through another source's quotation of it.
    Quoted,
    /// Not seen: another source reports it.
    NotSeen,
}

impl Seen {
    /// Every value, in the order of the schema.
    pub const ALL: [Self; 3] = [Self::Seen, Self::Quoted, Self::NotSeen];

    /// The value's name in the API.
    #[must_use]
    pub fn key(self) -> &'static str {
        self.into()
    }

    /// What a reader is told beside a citation not seen directly, in words
    /// a pupil follows: `None` when it was seen.
    #[must_use]
    pub fn caveat(self) -> Option<&'static str> {
        match self {
            Self::Seen => None,
            Self::Quoted => Some("as another source quotes it"),
            Self::NotSeen => Some("known only from another source"),
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
    /// The other side's awl after every consequence of the move (sent home
    /// by a whip, say), its own numbering.
    pub other_awl: u8,
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
