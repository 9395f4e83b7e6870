//! Retention: the games a purge deletes (found on a reader connection,
//! deleted by the writer only if still due).

use sqlx::QueryBuilder;

use super::rows;
use super::seam::{Dialect, in_tx, on_readers};
use super::{Result, Store, WriteTx};
use crate::domain::{GameId, Timestamp};

impl Store {
    /// Games whose last change (creation, move or stop) came before
    /// `before` (a [`Timestamp`]), at most `limit`,
    /// oldest change first: the candidates of a retention purge, found on a
    /// reader connection so that the search holds no write lock. Nothing
    /// changes a finished game (a throw or a stop on it is refused), so its
    /// last change is its end: these are the finished games that ended
    /// before `before` and the unfinished ones with no move since then.
    ///
    /// # Errors
    /// Any database error.
    pub async fn games_untouched_since(
        &self,
        before: &Timestamp,
        limit: u32,
    ) -> Result<Vec<GameId>> {
        let ids: Vec<String> = on_readers!(self, c => Ok(sqlx::query_scalar(
            "SELECT id FROM games WHERE updated_at < $1 ORDER BY updated_at LIMIT $2",
        )
        .bind(before.as_str())
        .bind(i64::from(limit))
        .fetch_all(c)
        .await?))?;
        Ok(rows::game_ids(&ids))
    }
}

impl WriteTx {
    /// Delete those of `ids` whose last change still came before `before`
    /// (a [`Timestamp`]; a game played meanwhile is kept), with their
    /// moves, seats and keys. Returns the ids deleted.
    ///
    /// # Errors
    /// Any database error.
    pub async fn delete_games_untouched_since(
        &mut self,
        ids: &[GameId],
        before: &Timestamp,
    ) -> Result<Vec<GameId>> {
        let mut deleted = Vec::new();
        for chunk in ids.chunks(256) {
            let gone: Vec<String> = in_tx!(self, c, D => {
                let mut delete =
                    QueryBuilder::<<D as Dialect>::Db>::new("DELETE FROM games WHERE updated_at < ");
                delete.push_bind(before.as_str());
                delete.push(" AND id IN (");
                let mut list = delete.separated(", ");
                for id in chunk {
                    list.push_bind(id.to_string());
                }
                delete.push(") RETURNING id");
                delete.build_query_scalar().fetch_all(c).await
            })?;
            deleted.extend(rows::game_ids(&gone));
        }
        Ok(deleted)
    }
}
