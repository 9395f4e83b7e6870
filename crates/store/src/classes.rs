//! Classes: a teacher's group of seated games under one host token, kept
//! only as its SHA-256 hash; which games are a class's, and whether a
//! token is the host of a game's class.

use sqlx::Row;

use super::games::game_from_row;
use super::{Backend, Result, Store, Tx, WriteTx, corrupt, pg};
use crate::domain::{Class, ClassId, Game, GameId, Timestamp, TokenHash};

/// Every game column, by class, oldest first.
const SELECT_CLASS_GAMES: &str = "SELECT id, created_at, updated_at, setup, seed, seeded, seated, sides_report_throws, state, version, status, told_facts FROM games WHERE class_id = ? ORDER BY created_at, id";

/// A class and its host's token hash from a row's columns (id, name,
/// `host_hash`, `created_at`).
pub(super) fn class_from_parts(
    id: &str,
    name: String,
    hash: &[u8],
    created_at: String,
) -> Result<(Class, TokenHash)> {
    let id = ClassId::parse(id).map_err(|_| corrupt(format!("bad class id {id:?}")))?;
    let hash = TokenHash::from_stored(hash)
        .ok_or_else(|| corrupt("a class's host hash is not 32 bytes".to_owned()))?;
    Ok((
        Class {
            id,
            name,
            created_at: Timestamp::from_stored(created_at),
        },
        hash,
    ))
}

fn class_from_row(row: &sqlx::sqlite::SqliteRow) -> Result<(Class, TokenHash)> {
    class_from_parts(
        row.try_get("id")?,
        row.try_get("name")?,
        row.try_get("host_hash")?,
        row.try_get("created_at")?,
    )
}

impl Store {
    /// The class with this id and its host's token hash.
    ///
    /// # Errors
    /// Any database error; corrupt stored data.
    pub async fn class(&self, id: ClassId) -> Result<Option<(Class, TokenHash)>> {
        let readers = match &self.backend {
            Backend::Sqlite(pools) => &pools.readers,
            Backend::Postgres(pool) => return pg::told(pool, pg::classes::class(pool, id)).await,
        };
        let row = sqlx::query("SELECT id, name, host_hash, created_at FROM classes WHERE id = ?")
            .bind(id.to_string())
            .fetch_optional(readers)
            .await?;
        row.as_ref().map(class_from_row).transpose()
    }

    /// The class's games, oldest first.
    ///
    /// # Errors
    /// Any database error; corrupt stored data.
    pub async fn class_games(&self, id: ClassId) -> Result<Vec<Game>> {
        let readers = match &self.backend {
            Backend::Sqlite(pools) => &pools.readers,
            Backend::Postgres(pool) => {
                return pg::told(pool, pg::classes::class_games(pool, id)).await;
            }
        };
        let rows = sqlx::query(SELECT_CLASS_GAMES)
            .bind(id.to_string())
            .fetch_all(readers)
            .await?;
        rows.iter().map(game_from_row).collect()
    }
}

impl WriteTx {
    /// Insert a class with the hash of its host's token.
    ///
    /// # Errors
    /// Any database error (a duplicate id or hash included).
    pub async fn insert_class(&mut self, class: &Class, host: &TokenHash) -> Result<()> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::classes::insert_class(tx, class, host).await,
        };
        sqlx::query("INSERT INTO classes (id, name, host_hash, created_at) VALUES (?, ?, ?, ?)")
            .bind(class.id.to_string())
            .bind(&class.name)
            .bind(host.as_bytes())
            .bind(class.created_at.as_str())
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// The class with this id and its host's token hash, read inside the
    /// transaction.
    ///
    /// # Errors
    /// Any database error; corrupt stored data.
    pub async fn class(&mut self, id: ClassId) -> Result<Option<(Class, TokenHash)>> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::classes::tx_class(tx, id).await,
        };
        let row = sqlx::query("SELECT id, name, host_hash, created_at FROM classes WHERE id = ?")
            .bind(id.to_string())
            .fetch_optional(&mut **tx)
            .await?;
        row.as_ref().map(class_from_row).transpose()
    }

    /// Put a game (inserted in this transaction) in a class.
    ///
    /// # Errors
    /// Any database error (no such class included).
    pub async fn place_in_class(&mut self, game: GameId, class: ClassId) -> Result<()> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::classes::place_in_class(tx, game, class).await,
        };
        sqlx::query("UPDATE games SET class_id = ? WHERE id = ?")
            .bind(class.to_string())
            .bind(game.to_string())
            .execute(&mut **tx)
            .await?;
        Ok(())
    }

    /// How many games the class has.
    ///
    /// # Errors
    /// Any database error.
    pub async fn class_game_count(&mut self, class: ClassId) -> Result<usize> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::classes::class_game_count(tx, class).await,
        };
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE class_id = ?")
            .bind(class.to_string())
            .fetch_one(&mut **tx)
            .await?;
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
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::classes::class_host_of(tx, token_hash, game).await,
        };
        let found: Option<i64> = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM games g WHERE g.id = ? AND g.class_id = c.id)
             FROM classes c WHERE c.host_hash = ?",
        )
        .bind(game.to_string())
        .bind(token_hash.as_bytes())
        .fetch_optional(&mut **tx)
        .await?;
        Ok(found.map(|in_class| in_class != 0))
    }
}

impl Store {
    /// Whether a token hash is any seat's or any class host's (to tell a
    /// token of something else from one that is nobody's).
    ///
    /// # Errors
    /// Any database error.
    pub async fn token_known(&self, token_hash: &TokenHash) -> Result<bool> {
        let readers = match &self.backend {
            Backend::Sqlite(pools) => &pools.readers,
            Backend::Postgres(pool) => {
                return pg::told(pool, pg::classes::token_known(pool, token_hash)).await;
            }
        };
        let known: i64 = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM seats WHERE token_hash = ?1)
                 OR EXISTS (SELECT 1 FROM classes WHERE host_hash = ?1)",
        )
        .bind(token_hash.as_bytes())
        .fetch_one(readers)
        .await?;
        Ok(known != 0)
    }
}

impl WriteTx {
    /// Delete the classes made before `before` that have no game left (a
    /// retention purge deleted them, or their host did): a class's name is
    /// kept no longer than its games. Returns how many.
    ///
    /// # Errors
    /// Any database error.
    pub async fn delete_empty_classes_before(&mut self, before: &Timestamp) -> Result<u64> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => {
                return pg::classes::delete_empty_classes_before(tx, before.as_str()).await;
            }
        };
        let done = sqlx::query(
            "DELETE FROM classes WHERE created_at < ?
             AND NOT EXISTS (SELECT 1 FROM games g WHERE g.class_id = classes.id)",
        )
        .bind(before.as_str())
        .execute(&mut **tx)
        .await?;
        Ok(done.rows_affected())
    }
}
