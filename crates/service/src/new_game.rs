//! The checks of a new game, for every surface that creates one (REST's
//! body, the MCP tool's arguments): a [`GameRequest`] as sent, checked into
//! the service's [`NewGame`], so every surface accepts and refuses the same
//! games in the same words. A value at fault is named by its JSON pointer
//! in the creation request (`/sides/a/name`, `/seed`, ...).

use super::command::{Created, NewGame, Tokens};
use super::refusal::{Fault, Refusal, RefusalKind, echo};
use crate::domain::{
    Game, GameId, SeatToken, Seats, Seed, Setup, SideSetup, Timestamp, Version, name_problem,
    same_name,
};
use crate::narration::{Audience, Detail};
use crate::rules;
use crate::rules::{OptionsPatch, Preset, Side, Table};

/// Longest side or player name, in Unicode scalar values.
pub const MAX_NAME_CHARS: usize = 40;
/// Longest seed, in Unicode scalar values.
pub const MAX_SEED_CHARS: usize = Seed::MAX_CHARS;
/// Most players on one side: the rules' [`Table::MAX_PLAYERS`], as a count
/// of names.
pub const MAX_PLAYERS: usize = Table::MAX_PLAYERS as usize;

/// A side as sent: a name and players, each optional.
#[derive(Clone, Debug, Default)]
pub struct SideRequest {
    /// Its name (default "Side A" / "Side B").
    pub name: Option<String>,
    /// Its players' names, in throwing order.
    pub players: Option<Vec<String>>,
}

/// A new game as sent, before its checks: every field optional.
#[derive(Clone, Debug, Default)]
pub struct GameRequest {
    /// The preset (default `composite`).
    pub preset: Option<Preset>,
    /// Options that override the preset's.
    pub options: Option<OptionsPatch>,
    /// Side A, then side B.
    pub sides: [SideRequest; 2],
    /// The side that throws first (default `A`).
    pub first: Option<Side>,
    /// The seed (default: a secret one).
    pub seed: Option<String>,
    /// Who the narration is for (default `general`).
    pub audience: Option<Audience>,
    /// How much the narration tells (default `lesson`).
    pub detail: Option<Detail>,
    /// Whether the game is seated.
    pub seats: bool,
    /// In a seated game, whether a side's own token may report a physical
    /// throw.
    pub sides_report_throws: bool,
}

/// Check a name: trimmed, 1..=40 Unicode scalar values, no control characters.
pub(crate) fn name(pointer: &str, raw: &str) -> Result<String, Fault> {
    let trimmed = raw.trim();
    let chars = trimmed.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(Fault {
            pointer: pointer.to_owned(),
            detail: format!("must be from 1 to {MAX_NAME_CHARS} characters, got {chars}"),
        });
    }
    if trimmed.chars().any(char::is_control) {
        return Err(Fault {
            pointer: pointer.to_owned(),
            detail: "must not contain control characters".to_owned(),
        });
    }
    if let Some(problem) = name_problem(trimmed) {
        return Err(Fault {
            pointer: pointer.to_owned(),
            detail: problem.to_string(),
        });
    }
    Ok(trimmed.to_owned())
}

impl GameRequest {
    /// The game to create, checked.
    ///
    /// # Errors
    /// Invalid input naming every value at fault (an option out of its
    /// bounds, a name or seed of the wrong length, too many players); both
    /// sides with the same name.
    pub fn check(self) -> Result<NewGame, Refusal> {
        let mut faults = Vec::new();
        let preset = self.preset.unwrap_or_default();
        let options = match self.options.unwrap_or_default().apply(preset.options()) {
            Ok(options) => options,
            Err(bad) => {
                faults.extend(bad.into_iter().map(|e| Fault {
                    pointer: format!("/ruleset/options/{}", e.option),
                    detail: format!(
                        "must be an integer from {} to {}, got {}",
                        e.min, e.max, e.got
                    ),
                }));
                preset.options()
            }
        };
        let named = [self.sides[0].name.is_some(), self.sides[1].name.is_some()];
        let mut sides: [(String, Vec<String>); 2] = [
            ("Side A".to_owned(), Vec::new()),
            ("Side B".to_owned(), Vec::new()),
        ];
        for (i, (key, side)) in ["a", "b"].into_iter().zip(self.sides).enumerate() {
            if let Some(raw) = side.name {
                match name(&format!("/sides/{key}/name"), &raw) {
                    Ok(n) => sides[i].0 = n,
                    Err(e) => faults.push(e),
                }
            }
            if let Some(players) = side.players {
                if players.is_empty() || players.len() > MAX_PLAYERS {
                    faults.push(Fault {
                        pointer: format!("/sides/{key}/players"),
                        detail: format!(
                            "must list from 1 to {MAX_PLAYERS} names, got {}",
                            players.len()
                        ),
                    });
                }
                for (j, raw) in players.iter().enumerate() {
                    match name(&format!("/sides/{key}/players/{j}"), raw) {
                        Ok(n) => sides[i].1.push(n),
                        Err(e) => faults.push(e),
                    }
                }
            }
        }
        let seed = match self.seed.as_deref().map(Seed::parse).transpose() {
            Ok(seed) => seed,
            Err(e) => {
                faults.push(Fault {
                    pointer: "/seed".to_owned(),
                    detail: e.to_string(),
                });
                None
            }
        };
        if self.sides_report_throws && !self.seats {
            faults.push(Fault {
                pointer: "/seats/sides_report_throws".to_owned(),
                detail:
                    "only a seated game has side tokens to report with; set `seats` to true as well"
                        .to_owned(),
            });
        }
        if !faults.is_empty() {
            return Err(Refusal::invalid_values(faults));
        }
        if same_name(&sides[0].0, &sides[1].0) {
            let pointer = if named[1] {
                "/sides/b/name"
            } else {
                "/sides/a/name"
            };
            // Both as sent: "Ama" and "ama" are one name (a newcomer read
            // `both are "Ama"` for two names that differ in case).
            let detail = if sides[0].0 == sides[1].0 {
                format!(
                    "the two sides must have different names (compared without case), both are {:?}",
                    echo(&sides[0].0)
                )
            } else {
                format!(
                    "the two sides must have different names (compared without case): {:?} and {:?} are the same name",
                    echo(&sides[0].0),
                    echo(&sides[1].0)
                )
            };
            let mut refusal = Refusal::new(
                RefusalKind::Unprocessable,
                "same-name",
                "Same name for both sides",
                format!("{pointer}: {detail}"),
            );
            refusal.faults = vec![Fault {
                pointer: pointer.to_owned(),
                detail,
            }];
            return Err(refusal);
        }
        if let Some(refusal) = teams_ludii_cannot_seat(preset, &sides) {
            return Err(refusal);
        }
        Ok(NewGame {
            preset,
            options,
            sides,
            first: self.first.unwrap_or(Side::A),
            seed,
            audience: self.audience.unwrap_or_default(),
            detail: self.detail.unwrap_or_default(),
            seats: self.seats,
            sides_report_throws: self.sides_report_throws,
        })
    }
}

/// Under the `ludii` preset, sides whose players differ in number: Ludii's
/// coding (`ludii-zohnahl`) seats exactly two teams of two, and its
/// comparison with this service holds only for teams of one size. An
/// unnamed side has the preset's default of two. Other presets take teams
/// of different sizes (docs/rules.md, section 5).
fn teams_ludii_cannot_seat(preset: Preset, sides: &[(String, Vec<String>); 2]) -> Option<Refusal> {
    if preset != Preset::Ludii {
        return None;
    }
    let default = usize::from(preset.default_players());
    let counts = sides.each_ref().map(|(_, players)| {
        if players.is_empty() {
            default
        } else {
            players.len()
        }
    });
    if counts[0] == counts[1] {
        return None;
    }
    let named = sides.each_ref().map(|(_, players)| !players.is_empty());
    let key = if named[1] && !named[0] { "a" } else { "b" };
    let pointer = format!("/sides/{key}/players");
    let count = |i: usize| {
        let n = counts[i];
        let players = if n == 1 { "player" } else { "players" };
        let how = if named[i] { "named" } else { "by default" };
        format!("{n} {players} {how}")
    };
    let detail = format!(
        "the ludii preset follows Ludii's coding, two teams of the same size (two players a side by default); side A has {}, side B {}: name as many players for each side, or choose another preset, whose teams may differ in size",
        count(0),
        count(1)
    );
    let mut refusal = Refusal::new(
        RefusalKind::Unprocessable,
        "unequal-teams",
        "Teams of different sizes under the ludii preset",
        format!("{pointer}: {detail}"),
    );
    refusal.faults = vec![Fault { pointer, detail }];
    Some(refusal)
}

/// A new game (not yet stored) and, for a seated game, its tokens and
/// their hashes.
pub(crate) fn new_game(new: NewGame) -> crate::Result<(Created, Option<Seats>)> {
    let default_players = usize::from(new.preset.default_players());
    let sides = new.sides.map(|(name, players)| {
        let players = if players.is_empty() {
            if default_players == 1 {
                vec![name.clone()]
            } else {
                (1..=default_players)
                    .map(|i| format!("{name} {i}"))
                    .collect()
            }
        } else {
            players
        };
        SideSetup { name, players }
    });
    let setup = Setup {
        preset: new.preset,
        options: new.options,
        sides,
        first: new.first,
        audience: new.audience,
        detail: new.detail,
    };
    let table = setup.table()?;
    let (seed, seeded) = match new.seed {
        Some(seed) => (seed, true),
        None => (Seed::fresh(), false),
    };
    let now = Timestamp::now();
    let game = Game {
        id: GameId::new(),
        created_at: now.clone(),
        updated_at: now,
        state: rules::GameState::new(&table),
        setup,
        seed,
        seeded,
        seated: new.seats,
        sides_report_throws: new.seats && new.sides_report_throws,
        version: Version::NEW,
        told_facts: Vec::new(),
    };
    let tokens = new.seats.then(|| Tokens {
        sides: [SeatToken::fresh(), SeatToken::fresh()],
        host: SeatToken::fresh(),
        join_codes: None,
    });
    let seats = tokens.as_ref().map(|t| Seats {
        sides: [t.sides[0].hash(), t.sides[1].hash()],
        host: Some(t.host.hash()),
    });
    Ok((Created { game, tokens }, seats))
}
