//! The move log: a page of a game's moves, one move.

use sqlx::Row;

use super::{Result, Store, StoreError, WriteTx, from_json};
use crate::domain::{GameId, MoveRecord};

impl Store {
    /// Moves of a game with `n > after`, oldest first, at most `limit`.
    ///
    /// # Errors
    /// Any database error; corrupt stored JSON.
    pub async fn moves(&self, id: GameId, after: u32, limit: u32) -> Result<Vec<MoveRecord>> {
        let rows =
            sqlx::query("SELECT body FROM moves WHERE game_id = ? AND n > ? ORDER BY n LIMIT ?")
                .bind(id.to_string())
                .bind(i64::from(after))
                .bind(i64::from(limit))
                .fetch_all(&self.readers)
                .await
                .map_err(StoreError::from_sqlx)?;
        rows.iter()
            .map(|r| from_json(r.try_get::<&str, _>("body")?))
            .collect()
    }

    /// Move number `n` of a game.
    ///
    /// # Errors
    /// Any database error; corrupt stored JSON.
    pub async fn move_record(&self, id: GameId, n: u32) -> Result<Option<MoveRecord>> {
        let row = sqlx::query("SELECT body FROM moves WHERE game_id = ? AND n = ?")
            .bind(id.to_string())
            .bind(i64::from(n))
            .fetch_optional(&self.readers)
            .await
            .map_err(StoreError::from_sqlx)?;
        row.map(|r| from_json(r.try_get::<&str, _>("body")?))
            .transpose()
    }
}

impl WriteTx {
    /// Move number `n` of a game, read inside the transaction (so a move
    /// written earlier in it is seen).
    ///
    /// # Errors
    /// Any database error; corrupt stored JSON.
    pub async fn move_record(&mut self, id: GameId, n: u32) -> Result<Option<MoveRecord>> {
        let row = sqlx::query("SELECT body FROM moves WHERE game_id = ? AND n = ?")
            .bind(id.to_string())
            .bind(i64::from(n))
            .fetch_optional(&mut *self.0)
            .await
            .map_err(StoreError::from_sqlx)?;
        row.map(|r| from_json(r.try_get::<&str, _>("body")?))
            .transpose()
    }
}
