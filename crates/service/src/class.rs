//! Classes: a teacher's group of seated games under one host token. A
//! class is made with its games, all of one setting; more may be added,
//! up to [`MAX_CLASS_GAMES`]. The class's host token, shown once, lists
//! the games and is host of each (see the roles in `writer/roles.rs`);
//! every game keeps its own tokens too.

use super::class_archive::ClassGame;
use super::command::{Answer, Created, NewGame};
use super::idempotency::{InFlight, kept, replay};
use super::new_game::new_game;
use super::new_game::{GameRequest, name};
use super::refusal::{Fault, Refusal};
use super::{Result, Service, ServiceError};
use crate::domain::{
    Class, ClassId, Game, GameId, IdempotencyKey, MoveRecord, SeatToken, Subject, Timestamp,
    TokenHash, Version,
};

/// Most games in one class (also within the class fairness report's
/// bound).
pub const MAX_CLASS_GAMES: usize = 40;

/// A new class as sent, before its checks.
#[derive(Clone, Debug, Default)]
pub struct ClassRequest {
    /// Its name (checked as a side's name is).
    pub name: String,
    /// How many games to make (1 to [`MAX_CLASS_GAMES`]).
    pub games: u64,
    /// The setting of every game (seated whatever it says).
    pub game: GameRequest,
}

/// A new class, checked.
#[derive(Clone, Debug)]
pub struct NewClass {
    /// Its name.
    pub name: String,
    /// How many games to make.
    pub games: usize,
    /// The setting of every game, seated.
    pub game: NewGame,
}

/// A class just made: its host's token, shown this once, and its games,
/// each with its own tokens.
#[derive(Clone, Debug)]
pub struct CreatedClass {
    /// The class.
    pub class: Class,
    /// The class host's token.
    pub host: SeatToken,
    /// Its games, in the order made.
    pub games: Vec<Created>,
}

impl ClassRequest {
    /// The class to make, checked: the name at `/name`, the count at
    /// `/games`, the games' setting under `/game`.
    ///
    /// # Errors
    /// Invalid input naming every value at fault; the game setting's own
    /// refusals (same names, unequal teams), under `/game`.
    pub fn check(self) -> std::result::Result<NewClass, Refusal> {
        let mut faults = Vec::new();
        let class_name = name("/name", &self.name).map_err(|f| faults.push(f)).ok();
        let games = usize::try_from(self.games)
            .ok()
            .filter(|n| (1..=MAX_CLASS_GAMES).contains(n));
        if games.is_none() {
            faults.push(Fault {
                pointer: "/games".to_owned(),
                detail: format!(
                    "must be from 1 to {MAX_CLASS_GAMES} games, got {}",
                    self.games
                ),
            });
        }
        let game = GameRequest {
            seats: true,
            ..self.game
        }
        .check()
        .map_err(|r| r.under("/game"));
        let game = match game {
            Ok(game) => Some(game),
            Err(r) if r.kind == super::RefusalKind::Invalid => {
                faults.extend(r.faults);
                None
            }
            Err(r) if faults.is_empty() => return Err(r),
            Err(_) => None,
        };
        match (class_name, games, game) {
            (Some(name), Some(games), Some(game)) if faults.is_empty() => {
                Ok(NewClass { name, games, game })
            }
            _ => Err(Refusal::invalid_values(faults)),
        }
    }
}

impl Service {
    /// Make a class and its games, seated, in one transaction, answering
    /// with what `render` makes of it. With an idempotency key (and the
    /// SHA-256 of the request as sent), the answer is kept, sealed, with
    /// the class's first game, as a game's creation keeps its own (see
    /// [`Service::create`]): a retry with the same key and request within
    /// 24 hours gets it again, byte for byte, tokens included, and makes no
    /// second class.
    ///
    /// # Errors
    /// [`ServiceError::Setup`], [`ServiceError::KeyInFlight`],
    /// [`ServiceError::KeyReused`]; storage errors.
    pub async fn create_class(
        &self,
        new: NewClass,
        idempotency: Option<(IdempotencyKey, [u8; 32])>,
        render: fn(&CreatedClass) -> Vec<u8>,
    ) -> Result<Answer> {
        let mut games = Vec::with_capacity(new.games);
        for _ in 0..new.games {
            let (created, seats) = new_game(new.game.clone())?;
            games.push(ClassGame {
                created,
                seats,
                played: None,
            });
        }
        self.write_class(new.name, games, idempotency, render).await
    }

    /// Write a new class named `name` with `games`, each with the moves it
    /// comes with, in one transaction, under a new host token; with an
    /// idempotency key, the answer is kept as [`Service::create_class`]
    /// says.
    pub(crate) async fn write_class(
        &self,
        name: String,
        games: Vec<ClassGame>,
        idempotency: Option<(IdempotencyKey, [u8; 32])>,
        render: fn(&CreatedClass) -> Vec<u8>,
    ) -> Result<Answer> {
        let _guard = idempotency
            .as_ref()
            .map(|(key, _)| InFlight::claim(&self.in_flight, None, key))
            .transpose()?;
        let host = SeatToken::fresh();
        let at = time::OffsetDateTime::now_utc();
        let now = Timestamp::at(at);
        let class = Class {
            id: ClassId::new(),
            name,
            created_at: now.clone(),
        };
        let mut tx = self.store.begin().await?;
        if let Some((key, hash)) = &idempotency
            && let Some(stored) = tx.create_answer(key, at).await?
        {
            tx.rollback().await?;
            return replay(stored, hash);
        }
        tx.insert_class(&class, &host.hash()).await?;
        let mut made = Vec::with_capacity(games.len());
        for ClassGame {
            mut created,
            seats,
            played,
        } in games
        {
            let id = created.game.id;
            match &played {
                None => tx.insert_game(&created.game, seats.as_ref()).await?,
                Some((start, played)) => {
                    tx.insert_game(start, seats.as_ref()).await?;
                    if played.game.version != Version::NEW {
                        let moves: Vec<(GameId, &MoveRecord)> =
                            played.records.iter().map(|r| (id, r)).collect();
                        tx.save_batch(
                            &now,
                            &[(&played.game, Version::NEW, Some(&played.rules_stated))],
                            &moves,
                        )
                        .await?;
                    }
                }
            }
            tx.place_in_class(id, class.id).await?;
            crate::join::give_codes(&mut tx, &mut created).await?;
            made.push(created);
        }
        let created = CreatedClass {
            class,
            host,
            games: made,
        };
        let answer = Answer {
            subject: Subject::Class(created.class.id),
            body: render(&created),
            replayed: false,
        };
        if let Some((key, hash)) = &idempotency
            && let Some(first) = created.games.first()
        {
            tx.keep_create_answer(key, first.game.id, &kept(&answer, hash), at)
                .await?;
        }
        tx.commit().await?;
        for _ in &created.games {
            crate::metrics::game_created();
        }
        Ok(answer)
    }

    /// A class and its games, oldest first, for its host.
    ///
    /// # Errors
    /// [`ServiceError::ClassNotFound`], [`ServiceError::ClassUnauthorized`],
    /// [`ServiceError::ClassForbidden`]; storage errors.
    pub async fn class(
        &self,
        id: ClassId,
        token: Option<&SeatToken>,
    ) -> Result<(Class, Vec<Game>)> {
        let (class, host) = self
            .store
            .class(id)
            .await?
            .ok_or(ServiceError::ClassNotFound(id))?;
        self.check_class_host(&host, token).await?;
        let games = self.store.class_games(id).await?;
        Ok((class, games))
    }

    /// Add one more game to a class, seated, for its host.
    ///
    /// # Errors
    /// [`ServiceError::ClassNotFound`], [`ServiceError::ClassUnauthorized`],
    /// [`ServiceError::ClassForbidden`], [`ServiceError::ClassFull`],
    /// [`ServiceError::Setup`]; storage errors.
    pub async fn create_class_game(
        &self,
        id: ClassId,
        token: Option<&SeatToken>,
        new: NewGame,
    ) -> Result<Created> {
        let (mut created, seats) = new_game(NewGame { seats: true, ..new })?;
        let mut tx = self.store.begin().await?;
        let Some((_, host)) = tx.class(id).await? else {
            tx.rollback().await?;
            return Err(ServiceError::ClassNotFound(id));
        };
        if let Err(e) = self.check_class_host(&host, token).await {
            tx.rollback().await?;
            return Err(e);
        }
        if tx.class_game_count(id).await? >= MAX_CLASS_GAMES {
            tx.rollback().await?;
            return Err(ServiceError::ClassFull);
        }
        tx.insert_game(&created.game, seats.as_ref()).await?;
        tx.place_in_class(created.game.id, id).await?;
        crate::join::give_codes(&mut tx, &mut created).await?;
        tx.commit().await?;
        crate::metrics::game_created();
        Ok(created)
    }

    /// The class host's token, or why not: none or one that is nobody's
    /// ([`ServiceError::ClassUnauthorized`]), another's
    /// ([`ServiceError::ClassForbidden`]).
    async fn check_class_host(&self, host: &TokenHash, token: Option<&SeatToken>) -> Result<()> {
        let hash = token.ok_or(ServiceError::ClassUnauthorized)?.hash();
        if hash == *host {
            return Ok(());
        }
        if self.store.token_known(&hash).await? {
            return Err(ServiceError::ClassForbidden);
        }
        Err(ServiceError::ClassUnauthorized)
    }
}
