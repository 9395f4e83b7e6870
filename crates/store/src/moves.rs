//! The move log: a page of a game's moves, one move. Each move is kept in
//! the log's binary form ([`LoggedMove`]) and narrated when it is read,
//! for the game's audience.

use sqlx::Row;

use super::{Backend, Result, Store, StoreError, Tx, WriteTx, corrupt, from_json, pg};
use crate::domain::LoggedMove;
use crate::domain::Narration;
use crate::domain::{Game, GameId, MoveRecord, Setup};

/// Move `n` from its stored bytes.
pub(super) fn record(n: i64, body: &[u8], setup: &Setup) -> Result<MoveRecord> {
    let n = u32::try_from(n).map_err(|_| corrupt(format!("move number {n}")))?;
    let logged = LoggedMove::decode(body).map_err(|e| corrupt(format!("move {n}: {e}")))?;
    Ok(logged.record(n, setup))
}

impl Store {
    /// The setup of a game, if there is such a game.
    async fn setup(&self, id: GameId) -> Result<Option<Setup>> {
        let readers = match &self.backend {
            Backend::Sqlite(pools) => &pools.readers,
            Backend::Postgres(_) => return Err(StoreError::Unavailable),
        };
        let setup: Option<String> = sqlx::query_scalar("SELECT setup FROM games WHERE id = ?")
            .bind(id.to_string())
            .fetch_optional(readers)
            .await?;
        setup.as_deref().map(from_json).transpose()
    }

    /// Moves of a game with `n > after`, oldest first, at most `limit`.
    ///
    /// # Errors
    /// Any database error; corrupt stored data.
    pub async fn moves(&self, id: GameId, after: u32, limit: u32) -> Result<Vec<MoveRecord>> {
        let readers = match &self.backend {
            Backend::Sqlite(pools) => &pools.readers,
            Backend::Postgres(pool) => {
                return pg::told(pool, pg::moves(pool, id, after, limit)).await;
            }
        };
        let Some(setup) = self.setup(id).await? else {
            return Ok(Vec::new());
        };
        let rows =
            sqlx::query("SELECT n, body FROM moves WHERE game_id = ? AND n > ? ORDER BY n LIMIT ?")
                .bind(id.to_string())
                .bind(i64::from(after))
                .bind(i64::from(limit))
                .fetch_all(readers)
                .await?;
        rows.iter()
            .map(|r| record(r.try_get("n")?, r.try_get::<&[u8], _>("body")?, &setup))
            .collect()
    }

    /// Move number `n` of a game.
    ///
    /// # Errors
    /// Any database error; corrupt stored data.
    pub async fn move_record(&self, id: GameId, n: u32) -> Result<Option<MoveRecord>> {
        let readers = match &self.backend {
            Backend::Sqlite(pools) => &pools.readers,
            Backend::Postgres(pool) => return pg::told(pool, pg::move_record(pool, id, n)).await,
        };
        let Some(setup) = self.setup(id).await? else {
            return Ok(None);
        };
        let body: Option<Vec<u8>> =
            sqlx::query_scalar("SELECT body FROM moves WHERE game_id = ? AND n = ?")
                .bind(id.to_string())
                .bind(i64::from(n))
                .fetch_optional(readers)
                .await?;
        body.map(|b| record(i64::from(n), &b, &setup)).transpose()
    }
}

impl WriteTx {
    /// The narration of the game's last move (read inside the
    /// transaction), with the game's memory of the rules stated so far:
    /// what the next move's narration starts from. `None` before the first
    /// move.
    ///
    /// # Errors
    /// Any database error; corrupt stored data.
    pub async fn last_narration(&mut self, game: &Game) -> Result<Option<Narration>> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::last_narration(tx, game).await,
        };
        let row = sqlx::query(
            "SELECT m.n, m.body, g.rules_stated FROM moves m JOIN games g ON g.id = m.game_id
             WHERE m.game_id = ? ORDER BY m.n DESC LIMIT 1",
        )
        .bind(game.id.to_string())
        .fetch_optional(&mut **tx)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let mut narration = record(
            row.try_get("n")?,
            row.try_get::<&[u8], _>("body")?,
            &game.setup,
        )?
        .narration;
        narration.rules_stated = from_json(row.try_get::<&str, _>("rules_stated")?)?;
        Ok(Some(narration))
    }
}
