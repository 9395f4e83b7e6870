//! Classes: a teacher's group of seated games under one host token, kept
//! only as its SHA-256 hash; which games are a class's, and whether a
//! token is the host of a game's class.

use super::rows::{ClassRow, GameRow, select_game};
use super::seam::{in_tx, on_readers};
use super::{Result, Store, WriteTx};
use crate::domain::{Class, ClassId, Game, GameId, Timestamp, TokenHash};

/// A class's columns by id (`$1`).
const SELECT_CLASS: &str = "SELECT id, name, host_hash, created_at FROM classes WHERE id = $1";

impl Store {
    /// The class with this id and its host's token hash.
    ///
    /// # Errors
    /// Any database error; corrupt stored data.
    pub async fn class(&self, id: ClassId) -> Result<Option<(Class, TokenHash)>> {
        let row: Option<ClassRow> = on_readers!(self, c => Ok(sqlx::query_as(SELECT_CLASS)
            .bind(id.to_string())
            .fetch_optional(c)
            .await?))?;
        row.map(ClassRow::class).transpose()
    }

    /// The class's games, oldest first.
    ///
    /// # Errors
    /// Any database error; corrupt stored data.
    pub async fn class_games(&self, id: ClassId) -> Result<Vec<Game>> {
        let rows: Vec<GameRow> = on_readers!(self, c => Ok(sqlx::query_as(
            select_game!("WHERE class_id = $1 ORDER BY created_at, id"),
        )
        .bind(id.to_string())
        .fetch_all(c)
        .await?))?;
        rows.into_iter().map(GameRow::game).collect()
    }

    /// Whether a token hash is any seat's or any class host's (to tell a
    /// token of something else from one that is nobody's).
    ///
    /// # Errors
    /// Any database error.
    pub async fn token_known(&self, token_hash: &TokenHash) -> Result<bool> {
        on_readers!(self, c => Ok(sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM seats WHERE token_hash = $1)
                 OR EXISTS (SELECT 1 FROM classes WHERE host_hash = $1)",
        )
        .bind(token_hash.as_bytes())
        .fetch_one(c)
        .await?))
    }
}

impl WriteTx {
    /// Insert a class with the hash of its host's token.
    ///
    /// # Errors
    /// Any database error (a duplicate id or hash included).
    pub async fn insert_class(&mut self, class: &Class, host: &TokenHash) -> Result<()> {
        in_tx!(self, c => sqlx::query(
            "INSERT INTO classes (id, name, host_hash, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(class.id.to_string())
        .bind(&class.name)
        .bind(host.as_bytes())
        .bind(class.created_at.as_str())
        .execute(c)
        .await
        .map(drop))?;
        Ok(())
    }

    /// The class with this id and its host's token hash, read inside the
    /// transaction.
    ///
    /// # Errors
    /// Any database error; corrupt stored data.
    pub async fn class(&mut self, id: ClassId) -> Result<Option<(Class, TokenHash)>> {
        let row: Option<ClassRow> = in_tx!(self, c => sqlx::query_as(SELECT_CLASS)
            .bind(id.to_string())
            .fetch_optional(c)
            .await)?;
        row.map(ClassRow::class).transpose()
    }

    /// Put a game (inserted in this transaction) in a class.
    ///
    /// # Errors
    /// Any database error (no such class included).
    pub async fn place_in_class(&mut self, game: GameId, class: ClassId) -> Result<()> {
        in_tx!(self, c => sqlx::query("UPDATE games SET class_id = $1 WHERE id = $2")
            .bind(class.to_string())
            .bind(game.to_string())
            .execute(c)
            .await
            .map(drop))?;
        Ok(())
    }

    /// How many games the class has.
    ///
    /// # Errors
    /// Any database error.
    pub async fn class_game_count(&mut self, class: ClassId) -> Result<usize> {
        let n: i64 = in_tx!(self, c => sqlx::query_scalar(
            "SELECT COUNT(*) FROM games WHERE class_id = $1",
        )
        .bind(class.to_string())
        .fetch_one(c)
        .await)?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// Whether a token hash is a class's host: `None` when it is no
    /// class's; `Some(true)` when it is the host of the class `game` is
    /// in, `Some(false)` when it is another class's.
    ///
    /// # Errors
    /// Any database error.
    pub async fn class_host_of(
        &mut self,
        token_hash: &TokenHash,
        game: GameId,
    ) -> Result<Option<bool>> {
        Ok(in_tx!(self, c => sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM games g WHERE g.id = $1 AND g.class_id = c.id)
             FROM classes c WHERE c.host_hash = $2",
        )
        .bind(game.to_string())
        .bind(token_hash.as_bytes())
        .fetch_optional(c)
        .await)?)
    }

    /// Delete the classes made before `before` that have no game left (a
    /// retention purge deleted them, or their host did): a class's name is
    /// kept no longer than its games. Returns how many.
    ///
    /// # Errors
    /// Any database error.
    pub async fn delete_empty_classes_before(&mut self, before: &Timestamp) -> Result<u64> {
        Ok(in_tx!(self, c => sqlx::query(
            "DELETE FROM classes WHERE created_at < $1
             AND NOT EXISTS (SELECT 1 FROM games g WHERE g.class_id = classes.id)",
        )
        .bind(before.as_str())
        .execute(c)
        .await
        .map(|done| done.rows_affected()))?)
    }
}
