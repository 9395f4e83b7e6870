//! The domain records every layer shares: a game (setup, seed, state) and a move.

// The crates below this one, by the names the modules use.
use zohn_ahl_narration as narration;
use zohn_ahl_rules as rules;

use std::borrow::Cow;
use std::fmt;

mod log;
mod play;
mod subject;
mod values;

pub use log::LoggedMove;
pub use play::{Turn, play_move};
pub use subject::{BadSubject, Subject};
pub use values::{
    BadIdempotencyKey, BadJoinCode, BadSeed, IdempotencyKey, JOIN_CODE_ALPHABET, JOIN_CODE_LEN,
    JoinCode, SeatToken, Seed, Timestamp, TokenHash, Version,
};

use serde::{Deserialize, Serialize};

/// A move's narration and a game's memory of the rules stated: the
/// narration's types, as the records of this module carry them.
pub use crate::narration::{Narration, RulesStated};

use crate::narration::{Audience, Cast, Detail, MoveContext};
use crate::rules::{
    Event, GameState, Options, Outcome, Preset, Score, Seat, SetupError, Side, Table, Throw,
};

/// A game id: a UUID, written in its hyphenated lower-case form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameId(uuid::Uuid);

/// A string that is not a game id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a game id is a UUID such as 0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79")]
pub struct BadGameId;

impl GameId {
    /// A fresh random id (UUID v4).
    #[must_use]
    pub fn new() -> Self {
        Self(uuid::Uuid::new_v4())
    }

    /// Parse an id from its text form.
    ///
    /// # Errors
    /// [`BadGameId`] when `text` is not a UUID.
    pub fn parse(text: &str) -> Result<Self, BadGameId> {
        if text.len() != 36 {
            return Err(BadGameId);
        }
        uuid::Uuid::parse_str(text).map(Self).map_err(|_| BadGameId)
    }
}

impl Default for GameId {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

/// A class id: a UUID, written in its hyphenated lower-case form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClassId(uuid::Uuid);

/// A string that is not a class id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a class id is a UUID such as 5d0c1f9a-3b7e-4c2a-9e41-7a6b2c8d9e10")]
pub struct BadClassId;

impl ClassId {
    /// A fresh random id (UUID v4).
    #[must_use]
    pub fn new() -> Self {
        Self(uuid::Uuid::new_v4())
    }

    /// Parse an id from its text form.
    ///
    /// # Errors
    /// [`BadClassId`] when `text` is not a UUID.
    pub fn parse(text: &str) -> Result<Self, BadClassId> {
        if text.len() != 36 {
            return Err(BadClassId);
        }
        uuid::Uuid::parse_str(text)
            .map(Self)
            .map_err(|_| BadClassId)
    }
}

impl Default for ClassId {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Display for ClassId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

/// A class: a teacher's group of seated games under one host token (kept
/// only as its hash, beside the class).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    /// Its id.
    pub id: ClassId,
    /// Its name, as the teacher gave it.
    pub name: String,
    /// When it was made.
    pub created_at: Timestamp,
}

/// One side as set up: its name and its players' names (one name per
/// player; a lone player carries the side's name).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideSetup {
    /// The side's display name.
    pub name: String,
    /// Players in throwing order.
    pub players: Vec<String>,
}

/// Everything fixed at creation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// The preset the options started from.
    pub preset: Preset,
    /// The resolved options.
    pub options: Options,
    /// Side A then side B.
    pub sides: [SideSetup; 2],
    /// The side that throws first.
    pub first: Side,
    /// The narration's audience.
    pub audience: Audience,
    /// How much a move's narration tells when read (the stored narration
    /// is always the lesson's, the game's memory); a game stored before
    /// detail levels reads as [`Detail::Lesson`].
    #[serde(default)]
    pub detail: Detail,
}

impl Setup {
    /// The rules engine's table for this setup.
    ///
    /// # Errors
    /// [`SetupError`] when the options or team sizes are out of bounds.
    pub fn table(&self) -> Result<Table, SetupError> {
        Table::new(
            self.options,
            [self.sides[0].players.len(), self.sides[1].players.len()],
            self.first,
        )
    }

    /// The names the narration uses.
    #[must_use]
    pub fn cast(&self) -> Cast {
        Cast {
            sides: [self.sides[0].name.clone(), self.sides[1].name.clone()],
            players: [self.sides[0].players.clone(), self.sides[1].players.clone()],
        }
    }

    /// The name of the player at `seat`.
    #[must_use]
    pub fn player_name(&self, seat: Seat) -> &str {
        let side = &self.sides[seat.side.index()];
        side.players
            .get(usize::from(seat.player))
            .map_or(side.name.as_str(), String::as_str)
    }
}

/// A stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Its id.
    pub id: GameId,
    /// Creation time.
    pub created_at: Timestamp,
    /// Time of the last change.
    pub updated_at: Timestamp,
    /// The setup.
    pub setup: Setup,
    /// The seed of its throw generator.
    pub seed: Seed,
    /// Whether the creator chose the seed.
    pub seeded: bool,
    /// Whether throws need the side's seat token (or the host's).
    pub seated: bool,
    /// In a seated game: whether a side's own token may report a physical
    /// throw for it (otherwise only the host's token may).
    pub sides_report_throws: bool,
    /// The state after the last move.
    pub state: GameState,
    /// Changes stored so far: its moves, and a stop (the compare-and-set
    /// version, and its ETag).
    pub version: Version,
    /// Context facts told so far, oldest first.
    pub told_facts: Vec<String>,
}

impl Game {
    /// `in_progress` or `finished`.
    #[must_use]
    pub fn status(&self) -> &'static str {
        if self.state.is_finished() {
            "finished"
        } else {
            "in_progress"
        }
    }

    /// Whether the game was stopped rather than played to its end: a stop
    /// is a stored change of its own, so the version counts one more than
    /// the throws.
    #[must_use]
    pub fn was_stopped(&self) -> bool {
        self.version.get() > self.state.throws
    }

    /// The winner, if any.
    #[must_use]
    pub fn winner(&self) -> Option<Side> {
        match self.state.outcome {
            Some(Outcome::Won { side }) => Some(side),
            _ => None,
        }
    }
}

/// The SHA-256 hashes of a seated game's tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seats {
    /// Each side's token (A first).
    pub sides: [TokenHash; 2],
    /// The host's token; `None` for a game seated before hosts existed.
    pub host: Option<TokenHash>,
}

/// Why a side or player name is refused (besides its length and control
/// characters, which the HTTP layer checks with the schema's bounds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameProblem {
    /// It carries a bidirectional control (U+202E and its kin), which can
    /// make the text around it read backwards.
    #[error("must not contain bidirectional control characters (it has U+{:04X})", u32::from(*.0))]
    Bidi(char),
    /// Nothing of it shows: only spaces and invisible characters
    /// (zero-width spaces and joiners, U+FEFF, other default-ignorable
    /// characters).
    #[error("must contain a visible character, not only spaces or invisible characters")]
    Invisible,
}

/// A bidirectional control: the embeddings and overrides U+202A-U+202E,
/// the isolates U+2066-U+2069, the marks U+200E, U+200F and U+061C.
#[must_use]
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// A Unicode default-ignorable code point (DerivedCoreProperties
/// `Default_Ignorable_Code_Point`): drawn as nothing when it is not
/// understood, such as the zero-width space and joiners and U+FEFF.
#[must_use]
pub fn is_default_ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFF8}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// What is wrong with a (trimmed) side or player name beyond its length
/// and control characters, if anything: a bidirectional control anywhere,
/// or nothing visible at all.
#[must_use]
pub fn name_problem(name: &str) -> Option<NameProblem> {
    if let Some(c) = name.chars().find(|&c| is_bidi_control(c)) {
        return Some(NameProblem::Bidi(c));
    }
    if name
        .chars()
        .all(|c| c.is_whitespace() || is_default_ignorable(c))
    {
        return Some(NameProblem::Invisible);
    }
    None
}

/// Whether two names would read as the same name: equal once trimmed,
/// without their invisible characters, and compared without case (upper
/// case, then lower, so that `ß` and `SS` compare equal).
#[must_use]
pub fn same_name(a: &str, b: &str) -> bool {
    let key = |s: &str| -> String {
        let visible: String = s
            .trim()
            .chars()
            .filter(|&c| !is_default_ignorable(c))
            .collect();
        visible.to_uppercase().to_lowercase()
    };
    key(a) == key(b)
}

/// Where a throw came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, strum::VariantNames)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ThrowOrigin {
    /// The server's seeded generator.
    Server,
    /// A physical throw reported by the client.
    Reported,
}

/// The OpenAPI schema of [`ThrowOrigin`], for the HTTP layer's document:
/// exactly the values serde writes.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for ThrowOrigin {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::rules::schema::string_enum(
            <Self as strum::VariantNames>::VARIANTS,
            "Where a throw came from: `server` (the game's seeded generator) or `reported` (a physical throw sent by the client).",
        )
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for ThrowOrigin {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("ThrowOrigin")
    }
}

/// A stored move: one throw and everything it caused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// 1-based move number.
    pub n: u32,
    /// Who threw.
    pub seat: Seat,
    /// Server or reported.
    pub origin: ThrowOrigin,
    /// The sticks' faces (or spinner sector).
    pub throw: Throw,
    /// Value, extra throw and probability.
    pub score: Score,
    /// The mover's awl before, own numbering.
    pub from: u8,
    /// The mover's awl after every consequence, own numbering.
    pub to: u8,
    /// What happened, in order.
    pub events: Vec<Event>,
    /// The narration.
    pub narration: Narration,
    /// The state after the move.
    pub state: GameState,
}

impl MoveRecord {
    /// This move in one line of at most [`narration::CAPTION_MAX_CHARS`]
    /// characters for `audience`: who threw what, where the awl went and
    /// what happened (deterministic: the same every time).
    #[must_use]
    pub fn caption(&self, setup: &Setup, audience: Audience) -> String {
        let cast = setup.cast();
        narration::caption(
            &self.context(&setup.options, &cast, audience, Detail::Brief),
            self.from,
            self.to,
        )
    }

    /// This move as the narration sees it for `audience` at `detail`,
    /// without its game's history (for telling a stored move again).
    #[must_use]
    pub fn context<'a>(
        &'a self,
        options: &'a Options,
        cast: &'a Cast,
        audience: Audience,
        detail: Detail,
    ) -> MoveContext<'a> {
        MoveContext {
            options,
            cast,
            audience,
            detail,
            move_number: self.n,
            from: self.from,
            to: self.to,
            other_awl: self.state.awl(self.seat.side.other()),
            seat: self.seat,
            throw: &self.throw,
            score: &self.score,
            events: &self.events,
            told: &[],
            previous: None,
        }
    }

    /// This move's narration for `audience` at `detail`: the stored
    /// narration when it was written for that audience and the detail is
    /// [`Detail::Lesson`] (the stored one's); otherwise the stored move
    /// narrated again from its events and its plan (the same rules and the
    /// same context fact) in that audience's words at that detail
    /// (deterministic: the same every time).
    #[must_use]
    pub fn narration_for(&self, setup: &Setup, audience: Audience, detail: Detail) -> Narration {
        self.told(setup, audience, detail).into_owned()
    }

    /// [`Self::narration_for`] without a copy of the stored narration when
    /// it is the one asked for.
    #[must_use]
    pub fn told(&self, setup: &Setup, audience: Audience, detail: Detail) -> Cow<'_, Narration> {
        if self.narration.audience == audience && detail == Detail::Lesson {
            return Cow::Borrowed(&self.narration);
        }
        let cast = setup.cast();
        Cow::Owned(narration::renarrate_move(
            &self.context(&setup.options, &cast, audience, detail),
            &self.narration,
        ))
    }

    /// [`Self::told`] with the move's odds sentence last
    /// ([`narration::add_odds`]), when `chances` are given and the move is
    /// an odds moment (at `lesson` on a move that teaches nothing else, and
    /// at `full`): told when read from the chances given, never stored.
    #[must_use]
    pub fn told_with_chances(
        &self,
        setup: &Setup,
        audience: Audience,
        detail: Detail,
        chances: Option<&narration::Chances>,
    ) -> Cow<'_, Narration> {
        let told = self.told(setup, audience, detail);
        let Some(chances) = chances else {
            return told;
        };
        let cast = setup.cast();
        let ctx = self.context(&setup.options, &cast, audience, detail);
        if narration::odds_segment(&ctx, chances).is_none() {
            return told;
        }
        let mut narration = told.into_owned();
        narration::add_odds(&mut narration, &ctx, chances);
        Cow::Owned(narration)
    }

    /// This move's narration as its game tells it: for the game's audience
    /// at the game's detail level.
    #[must_use]
    pub fn told_in(&self, setup: &Setup) -> Cow<'_, Narration> {
        self.told(setup, setup.audience, setup.detail)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A game stored before detail levels existed has no `detail` in its
    /// setup: it reads as a lesson, and is written back with it.
    #[test]
    fn a_setup_stored_without_detail_reads_as_a_lesson() {
        let setup = Setup {
            preset: Preset::Composite,
            options: Preset::Composite.options(),
            sides: ["A", "B"].map(|n| SideSetup {
                name: n.to_owned(),
                players: vec![n.to_owned()],
            }),
            first: Side::A,
            audience: Audience::Young,
            detail: Detail::Full,
        };
        let mut stored = serde_json::to_value(&setup).unwrap();
        assert_eq!(stored["detail"], "full");
        stored.as_object_mut().unwrap().remove("detail");
        let read: Setup = serde_json::from_value(stored).unwrap();
        assert_eq!(read.detail, Detail::Lesson);
        assert_eq!(read.audience, Audience::Young);
    }
}
