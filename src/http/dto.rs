//! Request and response bodies, with their OpenAPI schemas. Requests are
//! parsed here into the service's validated types (`TryFrom`), so handlers
//! only ever see values within bounds.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::json::Obj;
use super::problem::{ApiError, FieldError};
use crate::domain::{Game, MoveRecord, Setup, ThrowOrigin};
use crate::narration::{Audience, Citation, Narration, Segment, SegmentKind};
use crate::rules::{
    Board, CounterReason, Creek, DeadlyNorthBank, DryBranch, EndCheck, Event, Face, GameState,
    Options, OptionsPatch, Outcome, Overshoot, OwnLastSpace, Preset, Seat, Side, SpinnerSector,
    Sticks, Throw, ThrowTable, TurnOrder, WinReason,
};
use crate::service::NewGame;

/// Longest side or player name, in Unicode scalar values.
pub const MAX_NAME_CHARS: usize = 40;
/// Longest seed, in Unicode scalar values.
pub const MAX_SEED_CHARS: usize = 128;
/// Most players on one side.
pub const MAX_PLAYERS: usize = 8;

// ---------------------------------------------------------------- requests

/// Body of `POST /v1/games`. Every field is optional: `{}` creates a
/// composite game between "Side A" and "Side B", A first, server-seeded.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "ruleset": {"preset": "composite", "options": {"counters_per_side": 4}},
    "sides": {"a": {"name": "Tsoñ"}, "b": {"name": "Sahe"}},
    "first": "A",
    "seed": "lesson-1",
    "narration": {"audience": "general"}
}))]
pub struct CreateGameRequest {
    /// The ruleset: a preset and option overrides.
    #[schema(value_type = Option<RulesetRequest>)]
    pub ruleset: Option<Obj<RulesetRequest>>,
    /// Side names and players.
    #[schema(value_type = Option<SidesRequest>)]
    pub sides: Option<Obj<SidesRequest>>,
    /// The side that throws first (default `A`).
    pub first: Option<Side>,
    /// A seed string (1 to 128 characters): the same seed gives the same
    /// throws, across restarts. Without it the server picks a secret one.
    #[schema(min_length = 1, max_length = 128, example = "lesson-1")]
    pub seed: Option<String>,
    /// Narration settings.
    #[schema(value_type = Option<NarrationRequest>)]
    pub narration: Option<Obj<NarrationRequest>>,
    /// `true` (or an object of seat settings): the answer gives each side a
    /// secret token and the host another, once; every throw then needs
    /// `Authorization: Bearer <token>` (the mover's or the host's), and
    /// stopping, deleting and (unless `sides_report_throws`) reporting a
    /// physical throw need the host's (default `false`: anyone may do
    /// anything).
    pub seats: Option<super::lifecycle::SeatsRequest>,
}

/// A preset and overrides of its options.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesetRequest {
    /// The preset (default `composite`).
    pub preset: Option<Preset>,
    /// Options that override the preset's.
    #[schema(value_type = Option<OptionsPatch>)]
    pub options: Option<Obj<OptionsPatch>>,
}

/// The two sides.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SidesRequest {
    /// Side A (east bank, counter-clockwise).
    #[schema(value_type = Option<SideRequest>)]
    pub a: Option<Obj<SideRequest>>,
    /// Side B (west bank, clockwise).
    #[schema(value_type = Option<SideRequest>)]
    pub b: Option<Obj<SideRequest>>,
}

/// One side's name and players.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SideRequest {
    /// Display name, 1 to 40 characters, with a visible character (not
    /// only spaces or invisible characters), no control characters and no
    /// bidirectional controls; not the other side's name, compared without
    /// case (default "Side A" / "Side B").
    #[schema(
        min_length = 1,
        max_length = 40,
        example = "Tsoñ",
        pattern = "^[^\\x00-\\x1F\\x7F-\\x9F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*[^\\s\\x00-\\x1F\\x7F-\\x9F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069\\u00AD\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200D\\u2060-\\u2065\\u206A-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFF8][^\\x00-\\x1F\\x7F-\\x9F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*$"
    )]
    pub name: Option<String>,
    /// Player names in throwing order, 1 to 8 names of 1 to 40 characters.
    #[schema(min_items = 1, max_items = 8, inline)]
    pub players: Option<Vec<PlayerName>>,
}

/// A player's name, 1 to 40 characters, with a visible character, no
/// control characters and no bidirectional controls.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(transparent)]
#[schema(
    min_length = 1,
    max_length = 40,
    example = "Ama",
    pattern = "^[^\\x00-\\x1F\\x7F-\\x9F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*[^\\s\\x00-\\x1F\\x7F-\\x9F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069\\u00AD\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200D\\u2060-\\u2065\\u206A-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFF8][^\\x00-\\x1F\\x7F-\\x9F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*$"
)]
pub struct PlayerName(String);

/// Narration settings.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NarrationRequest {
    /// Who the narration is for (default `general`).
    pub audience: Option<Audience>,
}

/// Body of `POST /v1/games/{id}/throws`. Empty (or `{}`): the server throws
/// with the game's seeded generator. Or report a physical throw: `sticks`
/// for the stick tables, `spinner` for the spinner table.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"sticks": ["flat", "round", "round", "flat"]}), max_properties = 1)]
pub struct ThrowRequest {
    /// The face of each of the four sticks; the fourth is the sahe.
    #[schema(min_items = 4, max_items = 4)]
    pub sticks: Option<[Face; 4]>,
    /// Where the spinner stopped.
    pub spinner: Option<SpinnerSector>,
}

/// Check a name: trimmed, 1..=40 Unicode scalar values, no control characters.
fn name(pointer: &str, raw: &str) -> Result<String, FieldError> {
    let trimmed = raw.trim();
    let chars = trimmed.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(FieldError {
            pointer: pointer.to_owned(),
            detail: format!("must be from 1 to {MAX_NAME_CHARS} characters, got {chars}"),
        });
    }
    if trimmed.chars().any(char::is_control) {
        return Err(FieldError {
            pointer: pointer.to_owned(),
            detail: "must not contain control characters".to_owned(),
        });
    }
    if let Some(problem) = crate::domain::name_problem(trimmed) {
        return Err(FieldError {
            pointer: pointer.to_owned(),
            detail: problem.to_string(),
        });
    }
    Ok(trimmed.to_owned())
}

impl TryFrom<CreateGameRequest> for NewGame {
    type Error = ApiError;

    fn try_from(req: CreateGameRequest) -> Result<Self, ApiError> {
        let mut errors = Vec::new();
        let ruleset = req.ruleset.unwrap_or_default().0;
        let preset = ruleset.preset.unwrap_or_default();
        let options = match ruleset
            .options
            .map(|o| o.0)
            .unwrap_or_default()
            .apply(preset.options())
        {
            Ok(options) => options,
            Err(bad) => {
                errors.extend(bad.into_iter().map(|e| FieldError {
                    pointer: format!("/ruleset/options/{}", e.option),
                    detail: format!(
                        "must be an integer from {} to {}, got {}",
                        e.min, e.max, e.got
                    ),
                }));
                preset.options()
            }
        };
        let sides_req = req.sides.unwrap_or_default().0;
        let named = [
            sides_req.a.as_ref().is_some_and(|s| s.0.name.is_some()),
            sides_req.b.as_ref().is_some_and(|s| s.0.name.is_some()),
        ];
        let mut sides: [(String, Vec<String>); 2] = [
            ("Side A".to_owned(), Vec::new()),
            ("Side B".to_owned(), Vec::new()),
        ];
        for (i, (key, side)) in [("a", sides_req.a), ("b", sides_req.b)]
            .into_iter()
            .enumerate()
        {
            let Some(Obj(side)) = side else { continue };
            if let Some(raw) = side.name {
                match name(&format!("/sides/{key}/name"), &raw) {
                    Ok(n) => sides[i].0 = n,
                    Err(e) => errors.push(e),
                }
            }
            if let Some(players) = side.players {
                if players.is_empty() || players.len() > MAX_PLAYERS {
                    errors.push(FieldError {
                        pointer: format!("/sides/{key}/players"),
                        detail: format!(
                            "must list from 1 to {MAX_PLAYERS} names, got {}",
                            players.len()
                        ),
                    });
                }
                for (j, PlayerName(raw)) in players.iter().enumerate() {
                    match name(&format!("/sides/{key}/players/{j}"), raw) {
                        Ok(n) => sides[i].1.push(n),
                        Err(e) => errors.push(e),
                    }
                }
            }
        }
        let seed = match req.seed {
            Some(seed) => {
                let chars = seed.chars().count();
                if chars == 0 || chars > MAX_SEED_CHARS {
                    errors.push(FieldError {
                        pointer: "/seed".to_owned(),
                        detail: format!(
                            "must be from 1 to {MAX_SEED_CHARS} characters, got {chars}"
                        ),
                    });
                }
                Some(seed)
            }
            None => None,
        };
        if !errors.is_empty() {
            let detail = errors
                .iter()
                .map(|e| format!("{}: {}", e.pointer, e.detail))
                .collect::<Vec<_>>()
                .join("; ");
            return Err(ApiError::invalid(detail, errors));
        }
        if crate::domain::same_name(&sides[0].0, &sides[1].0) {
            let pointer = if named[1] {
                "/sides/b/name"
            } else {
                "/sides/a/name"
            };
            let detail = format!(
                "the two sides must have different names (compared without case), both are {:?}",
                super::problem::echo(&sides[0].0)
            );
            return Err(ApiError::unprocessable(
                "same-name",
                "Same name for both sides",
                format!("{pointer}: {detail}"),
                vec![FieldError {
                    pointer: pointer.to_owned(),
                    detail,
                }],
            ));
        }
        let seats = req.seats.unwrap_or_default();
        Ok(NewGame {
            preset,
            options,
            sides,
            first: req.first.unwrap_or(Side::A),
            seed,
            audience: req.narration.and_then(|n| n.0.audience).unwrap_or_default(),
            seats: seats.seated,
            sides_report_throws: seats.sides_report_throws,
        })
    }
}

impl ThrowRequest {
    /// The reported throw, if any.
    ///
    /// # Errors
    /// 400 when both `sticks` and `spinner` are given.
    pub fn reported(self) -> Result<Option<Throw>, ApiError> {
        match (self.sticks, self.spinner) {
            (Some(_), Some(_)) => Err(ApiError::field(
                "/spinner",
                "give either sticks or spinner, not both",
            )),
            (Some(faces), None) => Ok(Some(Throw::Sticks(Sticks::new(faces)))),
            (None, Some(sector)) => Ok(Some(Throw::Spinner(sector))),
            (None, None) => Ok(None),
        }
    }
}

// --------------------------------------------------------------- responses

/// The resolved options of a game's ruleset.
#[derive(Debug, Serialize, ToSchema)]
pub struct OptionsView {
    /// Track shape.
    pub board: Board,
    /// Throw table.
    pub throw_table: ThrowTable,
    /// Deadly north-creek bank.
    pub deadly_north_bank: DeadlyNorthBank,
    /// Landing exactly on own last space.
    pub own_last_space: OwnLastSpace,
    /// Passing own last space.
    pub overshoot: Overshoot,
    /// Landing on a dry branch.
    pub dry_branch: DryBranch,
    /// Counters each side started with.
    #[schema(minimum = 1, maximum = 15)]
    pub counters_per_side: u8,
    /// Team turn order.
    pub turn_order: TurnOrder,
    /// Circuits that win outright, or `null`.
    #[schema(minimum = 1, maximum = 10)]
    pub circuits_to_win: Option<u8>,
    /// When counters end the game.
    pub end_check: EndCheck,
}

impl From<Options> for OptionsView {
    fn from(o: Options) -> Self {
        Self {
            board: o.board,
            throw_table: o.throw_table,
            deadly_north_bank: o.deadly_north_bank,
            own_last_space: o.own_last_space,
            overshoot: o.overshoot,
            dry_branch: o.dry_branch,
            counters_per_side: o.counters_per_side,
            turn_order: o.turn_order,
            circuits_to_win: o.circuits_to_win,
            end_check: o.end_check,
        }
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

/// Where an awl stands.
#[derive(Debug, Serialize, ToSchema)]
pub struct AwlView {
    /// The space in the side's own numbering (1 = its start).
    #[schema(minimum = 1, maximum = 40, example = 1)]
    pub space: u8,
    /// The physical space, counted 0.. in side A's direction from A's start
    /// (the same index for both sides means the same space).
    #[schema(minimum = 0, maximum = 39, example = 0)]
    pub physical_index: u8,
    /// What is drawn there, seen by this side: `ordinary`,
    /// `dry_branch_east`, `dry_branch_west`, `north_creek_near`,
    /// `north_creek_far`, `south_creek_far` (own start), `south_creek_near`.
    #[schema(example = "south_creek_far")]
    pub feature: String,
}

/// One side's place in the game.
#[derive(Debug, Serialize, ToSchema)]
pub struct SideView {
    /// `A` or `B`.
    pub side: Side,
    /// Display name.
    pub name: String,
    /// Player names in throwing order.
    pub players: Vec<String>,
    /// `counter_clockwise` (A) or `clockwise` (B).
    #[schema(example = "counter_clockwise")]
    pub direction: String,
    /// Its awl.
    pub awl: AwlView,
    /// Counters it holds.
    #[schema(minimum = 0, maximum = 30)]
    pub counters: u8,
    /// Circuits it has completed.
    pub circuits: u16,
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

fn seat_view(setup: &Setup, seat: Seat) -> SeatView {
    SeatView {
        side: seat.side,
        player: seat.player + 1,
        name: setup.player_name(seat).to_owned(),
    }
}

/// Links to the game's resources.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameLinks {
    /// This game.
    #[serde(rename = "self")]
    pub self_: String,
    /// Where to post throws.
    pub throws: String,
    /// The move log.
    pub moves: String,
}

/// A game's state.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameView {
    /// The game's id.
    #[schema(example = "0b7c6a8e-8c1e-4a39-9f0e-2f1d4c5b6a79")]
    pub id: String,
    /// `in_progress` or `finished`.
    #[schema(example = "in_progress")]
    pub status: String,
    /// Changes with every move or stop (also sent as `ETag`).
    pub version: u32,
    /// Creation time, RFC 3339 UTC.
    pub created_at: String,
    /// Last change, RFC 3339 UTC.
    pub updated_at: String,
    /// The ruleset.
    pub ruleset: RulesetView,
    /// Side A, then side B.
    pub sides: Vec<SideView>,
    /// Who throws next; `null` when finished.
    pub to_throw: Option<SeatView>,
    /// Whether the side to move is throwing again after a throw that said so.
    pub extra_throw_pending: bool,
    /// The winner, once there is one.
    pub winner: Option<Side>,
    /// `won` or `draw` once finished; `null` before.
    pub result: Option<String>,
    /// Throws played.
    pub throws: u32,
    /// The narration's audience.
    pub audience: Audience,
    /// The seed: the creator's own seed always; a server-chosen seed only
    /// once the game is finished (so nobody can foresee its throws).
    pub seed: Option<String>,
    /// Whether throws need a token: the mover's or the host's.
    pub seated: bool,
    /// In a seated game, whether a side's own token may report a physical
    /// throw (otherwise only the host's may).
    pub sides_report_throws: bool,
    /// The seat tokens (A's and B's), in the creation answer of a seated
    /// game only: they are never shown again. Keep them secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat_tokens: Option<SeatTokens>,
    /// The host's token (the teacher's, the app's), in the creation answer
    /// of a seated game only: it throws for either side, reports physical
    /// throws, stops and deletes the game. Never shown again; keep it secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_token: Option<String>,
    /// Related resources.
    pub links: GameLinks,
}

/// The secret seat tokens of a seated game.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatTokens {
    /// Side A's token.
    pub a: String,
    /// Side B's token.
    pub b: String,
}

/// Build the view of a game at `state` (its current state, or one stored
/// with a move).
#[must_use]
pub fn game_view(game: &Game, state: &GameState) -> GameView {
    let setup = &game.setup;
    let board = setup.options.board;
    let table = setup.table().ok();
    let id = game.id.to_string();
    let sides = Side::BOTH
        .iter()
        .map(|&side| {
            let space = state.awl(side);
            SideView {
                side,
                name: setup.sides[side.index()].name.clone(),
                players: setup.sides[side.index()].players.clone(),
                direction: match side {
                    Side::A => "counter_clockwise",
                    Side::B => "clockwise",
                }
                .to_owned(),
                awl: AwlView {
                    space,
                    physical_index: board.physical(side, space),
                    feature: board.feature(side, space).key().to_owned(),
                },
                counters: state.counters(side),
                circuits: state.circuits[side.index()],
            }
        })
        .collect();
    let finished = state.is_finished();
    GameView {
        status: if finished { "finished" } else { "in_progress" }.to_owned(),
        version: game.version,
        created_at: game.created_at.clone(),
        updated_at: game.updated_at.clone(),
        ruleset: RulesetView {
            preset: setup.preset,
            options: setup.options.into(),
        },
        sides,
        to_throw: match (&table, finished) {
            (Some(t), false) => Some(seat_view(setup, state.to_throw(t))),
            _ => None,
        },
        extra_throw_pending: state.extra_throw,
        winner: match state.outcome {
            Some(Outcome::Won { side }) => Some(side),
            _ => None,
        },
        result: state.outcome.map(|o| {
            match o {
                Outcome::Won { .. } => "won",
                Outcome::Draw => "draw",
            }
            .to_owned()
        }),
        throws: state.throws,
        audience: setup.audience,
        seed: (finished || game.seeded).then(|| game.seed.clone()),
        seated: game.seated,
        sides_report_throws: game.sides_report_throws,
        seat_tokens: None,
        host_token: None,
        links: GameLinks {
            self_: format!("/v1/games/{id}"),
            throws: format!("/v1/games/{id}/throws"),
            moves: format!("/v1/games/{id}/moves"),
        },
        id,
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

impl From<crate::rules::Odds> for ProbabilityView {
    fn from(o: crate::rules::Odds) -> Self {
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
}

impl From<&Citation> for CitationView {
    fn from(c: &Citation) -> Self {
        Self {
            source: c.source.clone(),
            locator: c.locator.clone(),
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
    /// For `event` and `rule` segments: the id of the rule behind it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// For `context` segments: the stable id of the fact told.
    #[serde(skip_serializing_if = "Option::is_none")]
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

/// What a throw made happen. `kind` names the event; spaces are in the
/// mover's own numbering.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventView {
    /// The awl moved.
    #[schema(title = "Moved")]
    Moved {
        /// The mover.
        side: Side,
        /// Where it stood.
        from: u8,
        /// Where the count ended.
        to: u8,
        /// Spaces counted.
        steps: u8,
    },
    /// Passed over the deadly north-creek bank without landing: harmless.
    #[schema(title = "PassedNorthCreek")]
    PassedNorthCreek {
        /// The mover.
        side: Side,
    },
    /// Came home: a circuit completed.
    #[schema(title = "CompletedCircuit")]
    CompletedCircuit {
        /// The mover.
        side: Side,
        /// Its circuits so far.
        circuits: u16,
        /// Landed exactly on own last space (`completes_circuit`).
        exact: bool,
    },
    /// Fell into a creek and went back to own space 1.
    #[schema(title = "FellIntoCreek")]
    FellIntoCreek {
        /// The mover.
        side: Side,
        /// `north` or `south`.
        creek: String,
        /// Where it landed.
        space: u8,
    },
    /// Whipped the other awl back to its start.
    #[schema(title = "Whipped")]
    Whipped {
        /// The mover.
        side: Side,
        /// The whipped side.
        victim: Side,
        /// Where, in the mover's numbering.
        space: u8,
    },
    /// One counter changed hands.
    #[schema(title = "CounterPaid")]
    CounterPaid {
        /// Who gave it.
        payer: Side,
        /// Who took it.
        payee: Side,
        /// `circuit`, `whip` or `creek_fall`.
        reason: String,
        /// Counters after the transfer.
        counters: CountersView,
    },
    /// A counter was owed but the payer had none.
    #[schema(title = "CounterUnpaid")]
    CounterUnpaid {
        /// Who owed it.
        payer: Side,
        /// To whom.
        payee: Side,
        /// `circuit`, `whip` or `creek_fall`.
        reason: String,
    },
    /// The throw was not played: an exact throw is needed to come home.
    #[schema(title = "ForcedPass")]
    ForcedPass {
        /// The mover.
        side: Side,
        /// The unplayable value.
        value: u8,
    },
    /// Landed on a dry branch, to no effect.
    #[schema(title = "LandedOnDryBranch")]
    LandedOnDryBranch {
        /// The mover.
        side: Side,
        /// Where.
        space: u8,
    },
    /// Landed on a dry branch that loses a throw.
    #[schema(title = "LostThrow")]
    LostThrow {
        /// The mover.
        side: Side,
        /// Where.
        space: u8,
        /// `true`: this throw's extra throw is lost; `false`: the next turn.
        extra_throw_lost: bool,
    },
    /// Crossed to the facing stroke of the opposite dry branch.
    #[schema(title = "CrossedDryBranch")]
    CrossedDryBranch {
        /// The mover.
        side: Side,
        /// Where it landed.
        from: u8,
        /// Where it crossed to.
        to: u8,
    },
    /// A turn was skipped for an earlier dry-branch landing.
    #[schema(title = "TurnSkipped")]
    TurnSkipped {
        /// The seat that lost its turn.
        seat: SeatView,
    },
    /// The same player throws again.
    #[schema(title = "ThrowsAgain")]
    ThrowsAgain {
        /// Who throws.
        seat: SeatView,
    },
    /// The sticks pass on.
    #[schema(title = "TurnPassed")]
    TurnPassed {
        /// Who throws next.
        seat: SeatView,
    },
    /// The game is over.
    #[schema(title = "Won")]
    Won {
        /// The winner.
        side: Side,
        /// `all_counters`, `circuits` or `stopped`.
        reason: String,
    },
    /// A stopped game with equal counters.
    #[schema(title = "Drawn")]
    Drawn,
}

fn word<T: Serialize>(v: T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The API form of an event.
#[must_use]
pub fn event_view(setup: &Setup, event: &Event) -> EventView {
    let reason = |r: CounterReason| word(r);
    match *event {
        Event::Moved {
            side,
            from,
            to,
            steps,
        } => EventView::Moved {
            side,
            from,
            to,
            steps,
        },
        Event::PassedNorthCreek { side } => EventView::PassedNorthCreek { side },
        Event::CompletedCircuit {
            side,
            circuits,
            exact,
        } => EventView::CompletedCircuit {
            side,
            circuits,
            exact,
        },
        Event::FellIntoCreek { side, creek, space } => EventView::FellIntoCreek {
            side,
            creek: word::<Creek>(creek),
            space,
        },
        Event::Whipped {
            side,
            victim,
            space,
        } => EventView::Whipped {
            side,
            victim,
            space,
        },
        Event::CounterPaid {
            payer,
            payee,
            reason: r,
            counters,
        } => EventView::CounterPaid {
            payer,
            payee,
            reason: reason(r),
            counters: CountersView {
                a: counters[0],
                b: counters[1],
            },
        },
        Event::CounterUnpaid {
            payer,
            payee,
            reason: r,
        } => EventView::CounterUnpaid {
            payer,
            payee,
            reason: reason(r),
        },
        Event::ForcedPass { side, value } => EventView::ForcedPass { side, value },
        Event::LandedOnDryBranch { side, space } => EventView::LandedOnDryBranch { side, space },
        Event::LostThrow {
            side,
            space,
            extra_throw_lost,
        } => EventView::LostThrow {
            side,
            space,
            extra_throw_lost,
        },
        Event::CrossedDryBranch { side, from, to } => {
            EventView::CrossedDryBranch { side, from, to }
        }
        Event::TurnSkipped { seat } => EventView::TurnSkipped {
            seat: seat_view(setup, seat),
        },
        Event::ThrowsAgain { seat } => EventView::ThrowsAgain {
            seat: seat_view(setup, seat),
        },
        Event::TurnPassed { seat } => EventView::TurnPassed {
            seat: seat_view(setup, seat),
        },
        Event::Won { side, reason: r } => EventView::Won {
            side,
            reason: word::<WinReason>(r),
        },
        Event::Drawn => EventView::Drawn,
    }
}

/// One move: the throw, what it did, and its narration.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveView {
    /// Move number, from 1.
    pub n: u32,
    /// The side that threw.
    pub side: Side,
    /// The player who threw.
    pub player: SeatView,
    /// `server` (the game's seeded generator) or `reported` (a physical
    /// throw sent by the client).
    #[schema(example = "server")]
    pub origin: String,
    /// Each stick's face, the sahe last (`null` for a spinner game).
    pub sticks: Option<Vec<Face>>,
    /// Flat faces up (`null` for a spinner game).
    #[schema(minimum = 0, maximum = 4)]
    pub flat_faces: Option<u8>,
    /// Whether the sahe showed its flat face (`null` for a spinner game).
    pub sahe_flat: Option<bool>,
    /// The spinner's sector (spinner games only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spinner: Option<SpinnerSector>,
    /// Spaces moved by the throw.
    #[schema(example = 3)]
    pub value: u8,
    /// Whether the same side throws again.
    pub throws_again: bool,
    /// Probability of this result (value and throws-again) under the table.
    pub probability: ProbabilityView,
    /// The mover's awl before, own numbering.
    pub from: u8,
    /// The mover's awl after every consequence, own numbering.
    pub to: u8,
    /// What happened, in order.
    pub events: Vec<EventView>,
    /// Counters after the move.
    pub counters: CountersView,
    /// What happened, why, and context, with citations.
    pub narration: NarrationView,
    /// The game after this move (in the response to a throw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<GameView>,
}

/// The API form of a stored move, with the game's state when given.
#[must_use]
pub fn move_view(game: &Game, record: &MoveRecord, with_state: bool) -> MoveView {
    let setup = &game.setup;
    let (sticks, flat_faces, sahe_flat, spinner) = match record.throw {
        Throw::Sticks(s) => (
            Some(s.faces().to_vec()),
            Some(s.flat_count()),
            Some(s.sahe_flat()),
            None,
        ),
        Throw::Spinner(sector) => (None, None, None, Some(sector)),
    };
    MoveView {
        n: record.n,
        side: record.seat.side,
        player: seat_view(setup, record.seat),
        origin: match record.origin {
            ThrowOrigin::Server => "server",
            ThrowOrigin::Reported => "reported",
        }
        .to_owned(),
        sticks,
        flat_faces,
        sahe_flat,
        spinner,
        value: record.score.value,
        throws_again: record.score.throws_again,
        probability: record.score.probability.into(),
        from: record.from,
        to: record.to,
        events: record.events.iter().map(|e| event_view(setup, e)).collect(),
        counters: CountersView {
            a: record.state.counters[0],
            b: record.state.counters[1],
        },
        narration: (&record.narration).into(),
        state: with_state.then(|| game_view(game, &game.state)),
    }
}

/// A page of the move log.
#[derive(Debug, Serialize, ToSchema)]
pub struct MovePage {
    /// Moves, oldest first.
    pub items: Vec<MoveView>,
    /// Pass as `cursor` to get the next page; `null` on the last page.
    pub next_cursor: Option<String>,
}

/// The result of stopping a game.
#[derive(Debug, Serialize, ToSchema)]
pub struct StopView {
    /// The game after the stop.
    pub state: GameView,
    /// The narrated result, cited.
    pub narration: NarrationView,
}
