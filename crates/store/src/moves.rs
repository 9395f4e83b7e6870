//! The move log: a page of a game's moves, one move. Each move is kept in
//! the log's binary form ([`crate::domain::LoggedMove`]) and narrated when
//! it is read, for the game's audience.

use super::rows::{self, MoveRow};
use super::seam::on_readers;
use super::{Result, Store, from_json};
use crate::domain::{GameId, MoveRecord, Setup};

impl Store {
    /// The setup of a game, if there is such a game.
    async fn setup(&self, id: GameId) -> Result<Option<Setup>> {
        let setup: Option<String> = on_readers!(self, c => Ok(
            sqlx::query_scalar("SELECT setup FROM games WHERE id = $1")
                .bind(id.to_string())
                .fetch_optional(c)
                .await?
        ))?;
        setup.as_deref().map(from_json).transpose()
    }

    /// Moves of a game with `n > after`, oldest first, at most `limit`.
    ///
    /// # Errors
    /// Any database error; corrupt stored data.
    pub async fn moves(&self, id: GameId, after: u32, limit: u32) -> Result<Vec<MoveRecord>> {
        let Some(setup) = self.setup(id).await? else {
            return Ok(Vec::new());
        };
        let moves: Vec<MoveRow> = on_readers!(self, c => Ok(sqlx::query_as(
            "SELECT n, body FROM moves WHERE game_id = $1 AND n > $2 ORDER BY n LIMIT $3",
        )
        .bind(id.to_string())
        .bind(i64::from(after))
        .bind(i64::from(limit))
        .fetch_all(c)
        .await?))?;
        moves
            .iter()
            .map(|m| rows::record(m.n, &m.body, &setup))
            .collect()
    }

    /// Move number `n` of a game.
    ///
    /// # Errors
    /// Any database error; corrupt stored data.
    pub async fn move_record(&self, id: GameId, n: u32) -> Result<Option<MoveRecord>> {
        let Some(setup) = self.setup(id).await? else {
            return Ok(None);
        };
        let body: Option<Vec<u8>> = on_readers!(self, c => Ok(sqlx::query_scalar(
            "SELECT body FROM moves WHERE game_id = $1 AND n = $2",
        )
        .bind(id.to_string())
        .bind(i64::from(n))
        .fetch_optional(c)
        .await?))?;
        body.map(|b| rows::record(i64::from(n), &b, &setup))
            .transpose()
    }
}
