//! A class's games moved between servers by its host: the export is the
//! class's name and each game as `zohn-ahl export` writes it (no token,
//! no seed the server drew); the import makes a new class of them on this
//! server, each game checked as a new game is, its throws played again
//! through the rules and the narration, under a new id with new tokens and
//! join codes (tokens are never exported, so old ones cannot open the
//! copies). A throw the archive says the server made is taken as the
//! server's only where the game's own seed gives it: an archive is its
//! host's word, and a host may report a throw but not make one the
//! server's.

use serde::{Deserialize, Serialize};

use super::archive::{ArchivedGame, FORMAT, Replayed, replay};
use super::class::{CreatedClass, MAX_CLASS_GAMES};
use super::command::{Answer, Created};
use super::new_game::{GameRequest, SideRequest, name, new_game};
use super::refusal::{Fault, Refusal, RefusalKind};
use super::{Result, Service, ServiceError};
use crate::domain::{ClassId, IdempotencyKey, SeatToken, Seats, ThrowOrigin};
use crate::rules::OptionsPatch;
use crate::throws::ServerThrows;

/// The format of a class's archive, its first field.
pub const CLASS_FORMAT: &str = "zohn-ahl-class/1";

/// A class as exported: its name and its games, oldest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassArchive {
    /// [`CLASS_FORMAT`].
    pub format: String,
    /// The class's name.
    pub name: String,
    /// When the class was made.
    pub created_at: String,
    /// Its games, oldest first, each as `zohn-ahl export` writes a line
    /// (never with seats).
    pub games: Vec<ArchivedGame>,
}

/// A class's archive checked and played again, ready to be written: a new
/// class of new games, each with new tokens.
#[derive(Debug)]
pub struct ImportedClass {
    name: String,
    games: Vec<ClassGame>,
}

/// A game of a class about to be written: as made (new id, new tokens),
/// as it began, and its moves.
pub(crate) struct ClassGame {
    /// The game as it stands, and its tokens.
    pub(crate) created: Created,
    /// The seats' hashes.
    pub(crate) seats: Option<Seats>,
    /// The game as it began, and its moves played again (none for a new
    /// game).
    pub(crate) played: Option<(crate::domain::Game, Replayed)>,
}

impl std::fmt::Debug for ClassGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClassGame")
            .field("game", &self.created.game.id)
            .finish_non_exhaustive()
    }
}

/// A fault at `pointer`.
fn fault(pointer: String, detail: impl Into<String>) -> Fault {
    Fault {
        pointer,
        detail: detail.into(),
    }
}

/// A new game's refusal, its pointers turned from a creation request's
/// (`/sides/a/name`, `/ruleset/options/...`) into the archived game's
/// (`/setup/sides/0/name`, `/setup/options/...`) under `/games/{i}`.
fn under_game(mut refusal: Refusal, i: usize) -> Refusal {
    for f in &mut refusal.faults {
        let p = &f.pointer;
        f.pointer = if let Some(rest) = p.strip_prefix("/sides/a") {
            format!("/setup/sides/0{rest}")
        } else if let Some(rest) = p.strip_prefix("/sides/b") {
            format!("/setup/sides/1{rest}")
        } else if let Some(rest) = p.strip_prefix("/ruleset/options") {
            format!("/setup/options{rest}")
        } else {
            p.clone()
        };
    }
    refusal.under(&format!("/games/{i}"))
}

impl ClassArchive {
    /// The class to import, checked and played again: the format at
    /// `/format`, the name at `/name`, 1 to [`MAX_CLASS_GAMES`] games at
    /// `/games`, and each game under `/games/{i}`: its format, its setup as
    /// a new game's is checked, its seed, and every throw played again
    /// (`/games/{i}/moves/{j}` for the first the rules refuse).
    ///
    /// # Errors
    /// Invalid input naming the values at fault; a game's own refusals
    /// (same names, unequal teams) under its pointer; 422
    /// `archive-does-not-replay` for a throw the rules refuse, or a throw
    /// said to be the server's that the game's own seed does not give.
    pub fn check(self, throws: &dyn ServerThrows) -> std::result::Result<ImportedClass, Refusal> {
        let mut faults = Vec::new();
        if self.format != CLASS_FORMAT {
            faults.push(fault(
                "/format".to_owned(),
                format!("must be {CLASS_FORMAT:?}, as an export writes it"),
            ));
        }
        let class_name = name("/name", &self.name).map_err(|f| faults.push(f)).ok();
        if !(1..=MAX_CLASS_GAMES).contains(&self.games.len()) {
            faults.push(fault(
                "/games".to_owned(),
                format!(
                    "must hold from 1 to {MAX_CLASS_GAMES} games, got {}",
                    self.games.len()
                ),
            ));
        }
        for (i, g) in self.games.iter().enumerate() {
            if g.format != FORMAT {
                faults.push(fault(
                    format!("/games/{i}/format"),
                    format!("must be {FORMAT:?}, as an export writes it"),
                ));
            }
            match (&g.seed, g.seeded) {
                (Some(_), false) => faults.push(fault(
                    format!("/games/{i}/seed"),
                    "must be left out when `seeded` is false",
                )),
                (None, true) => faults.push(fault(
                    format!("/games/{i}/seed"),
                    "must be sent when `seeded` is true",
                )),
                _ => {}
            }
        }
        if !faults.is_empty() {
            return Err(Refusal::invalid_values(faults));
        }
        let mut games = Vec::with_capacity(self.games.len());
        for (i, g) in self.games.into_iter().enumerate() {
            games.push(class_game(g, i, throws)?);
        }
        Ok(ImportedClass {
            name: class_name.unwrap_or_default(),
            games,
        })
    }
}

/// 422 `archive-does-not-replay` at `pointer`.
fn does_not_replay(pointer: String, detail: String) -> Refusal {
    let mut refusal = Refusal::new(
        RefusalKind::Unprocessable,
        "archive-does-not-replay",
        "A game's throws do not replay",
        format!("{pointer}: {detail}"),
    );
    refusal.faults = vec![fault(pointer, detail)];
    refusal
}

/// Game `i` of an archive, checked as a new game is and played again. A
/// throw said to be the server's is one only if the server would throw it:
/// with the creator's seed, the seed's throw for that move; without it (a
/// seed the server drew stays secret), nothing shows it, so it comes in as
/// reported, as a throw the server did not make here.
fn class_game(
    mut g: ArchivedGame,
    i: usize,
    throws: &dyn ServerThrows,
) -> std::result::Result<ClassGame, Refusal> {
    let table = g.setup.options.throw_table;
    for (j, m) in g.moves.iter_mut().enumerate() {
        if m.origin != ThrowOrigin::Server {
            continue;
        }
        let Some(seed) = &g.seed else {
            m.origin = ThrowOrigin::Reported;
            continue;
        };
        let n = u32::try_from(j + 1).unwrap_or(u32::MAX);
        if throws.throw(seed, table, n) != m.throw {
            return Err(does_not_replay(
                format!("/games/{i}/moves/{j}/throw"),
                format!(
                    "move {n} is said to be the server's throw, and the game's seed does not give it"
                ),
            ));
        }
    }
    let setup = g.setup;
    let side = |s: &crate::domain::SideSetup| SideRequest {
        name: Some(s.name.clone()),
        players: Some(s.players.clone()),
    };
    let new = GameRequest {
        preset: Some(setup.preset),
        options: Some(OptionsPatch::from(setup.options)),
        sides: [side(&setup.sides[0]), side(&setup.sides[1])],
        first: Some(setup.first),
        seed: g.seed,
        audience: Some(setup.audience),
        detail: Some(setup.detail),
        seats: true,
        sides_report_throws: g.sides_report_throws,
    }
    .check()
    .map_err(|r| under_game(r, i))?;
    let (mut created, seats) = new_game(new).map_err(|e| under_game(Refusal::from(e), i))?;
    let table = created
        .game
        .setup
        .table()
        .map_err(|e| Refusal::from(ServiceError::from(e)))?;
    let start = created.game.clone();
    let played = replay(&start, &table, &g.moves, g.stopped).map_err(|(n, why)| {
        let moves = g.moves.len();
        let pointer = if n as usize > moves {
            format!("/games/{i}/stopped")
        } else {
            format!("/games/{i}/moves/{}/throw", n - 1)
        };
        does_not_replay(pointer, format!("move {n} does not replay: {why}"))
    })?;
    created.game = played.game.clone();
    Ok(ClassGame {
        created,
        seats,
        played: Some((start, played)),
    })
}

impl Service {
    /// A class's archive, for its host: its name and each game as
    /// `zohn-ahl export` writes it, without seats.
    ///
    /// # Errors
    /// [`ServiceError::ClassNotFound`], [`ServiceError::ClassUnauthorized`],
    /// [`ServiceError::ClassForbidden`]; storage errors.
    pub async fn export_class(
        &self,
        id: ClassId,
        token: Option<&SeatToken>,
    ) -> Result<ClassArchive> {
        let (class, games) = self.class(id, token).await?;
        let mut archived = Vec::with_capacity(games.len());
        for game in games {
            if let Some(a) = self.export_game(game.id, false).await? {
                archived.push(a);
            }
        }
        Ok(ClassArchive {
            format: CLASS_FORMAT.to_owned(),
            name: class.name,
            created_at: class.created_at.as_str().to_owned(),
            games: archived,
        })
    }

    /// Write a checked archive as a new class, with a new host token, its
    /// games with new ids, tokens and join codes, in one transaction; kept
    /// for a retry with the same idempotency key as a class's creation is
    /// (see [`Service::create_class`]).
    ///
    /// # Errors
    /// [`ServiceError::KeyInFlight`], [`ServiceError::KeyReused`]; storage
    /// errors.
    pub async fn import_class(
        &self,
        imported: ImportedClass,
        idempotency: Option<(IdempotencyKey, [u8; 32])>,
        render: fn(&CreatedClass) -> Vec<u8>,
    ) -> Result<Answer> {
        self.write_class(imported.name, imported.games, idempotency, render)
            .await
    }
}
