//! The PostgreSQL twins of `classes.rs`'s statements.

use sqlx::postgres::{PgPool, PgRow};
use sqlx::{PgConnection, Row};

use super::game_from_row;
use crate::Result;
use crate::classes::class_from_parts;
use crate::domain::{Class, ClassId, Game, GameId, TokenHash};

const SELECT_CLASS: &str = "SELECT id, name, host_hash, created_at FROM classes WHERE id = $1";

const SELECT_CLASS_GAMES: &str = "SELECT id, created_at, updated_at, setup, seed, seeded, seated, sides_report_throws, state, version, status, told_facts FROM games WHERE class_id = $1 ORDER BY created_at, id";

fn class_from_row(row: &PgRow) -> Result<(Class, TokenHash)> {
    class_from_parts(
        row.try_get("id")?,
        row.try_get("name")?,
        row.try_get("host_hash")?,
        row.try_get("created_at")?,
    )
}

pub(crate) async fn class(pool: &PgPool, id: ClassId) -> Result<Option<(Class, TokenHash)>> {
    let row = sqlx::query(SELECT_CLASS)
        .bind(id.to_string())
        .fetch_optional(pool)
        .await?;
    row.as_ref().map(class_from_row).transpose()
}

pub(crate) async fn class_games(pool: &PgPool, id: ClassId) -> Result<Vec<Game>> {
    let rows = sqlx::query(SELECT_CLASS_GAMES)
        .bind(id.to_string())
        .fetch_all(pool)
        .await?;
    rows.iter().map(game_from_row).collect()
}

pub(crate) async fn insert_class(
    tx: &mut PgConnection,
    class: &Class,
    host: &TokenHash,
) -> Result<()> {
    sqlx::query("INSERT INTO classes (id, name, host_hash, created_at) VALUES ($1, $2, $3, $4)")
        .bind(class.id.to_string())
        .bind(&class.name)
        .bind(host.as_bytes())
        .bind(class.created_at.as_str())
        .execute(&mut *tx)
        .await?;
    Ok(())
}

pub(crate) async fn tx_class(
    tx: &mut PgConnection,
    id: ClassId,
) -> Result<Option<(Class, TokenHash)>> {
    let row = sqlx::query(SELECT_CLASS)
        .bind(id.to_string())
        .fetch_optional(&mut *tx)
        .await?;
    row.as_ref().map(class_from_row).transpose()
}

pub(crate) async fn place_in_class(
    tx: &mut PgConnection,
    game: GameId,
    class: ClassId,
) -> Result<()> {
    sqlx::query("UPDATE games SET class_id = $1 WHERE id = $2")
        .bind(class.to_string())
        .bind(game.to_string())
        .execute(&mut *tx)
        .await?;
    Ok(())
}

pub(crate) async fn class_game_count(tx: &mut PgConnection, class: ClassId) -> Result<usize> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE class_id = $1")
        .bind(class.to_string())
        .fetch_one(&mut *tx)
        .await?;
    Ok(usize::try_from(n).unwrap_or(0))
}

pub(crate) async fn class_host_of(
    tx: &mut PgConnection,
    token_hash: &TokenHash,
    game: GameId,
) -> Result<Option<bool>> {
    let found: Option<bool> = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM games g WHERE g.id = $1 AND g.class_id = c.id)
         FROM classes c WHERE c.host_hash = $2",
    )
    .bind(game.to_string())
    .bind(token_hash.as_bytes())
    .fetch_optional(&mut *tx)
    .await?;
    Ok(found)
}

pub(crate) async fn token_known(pool: &PgPool, token_hash: &TokenHash) -> Result<bool> {
    let known: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM seats WHERE token_hash = $1)
             OR EXISTS (SELECT 1 FROM classes WHERE host_hash = $1)",
    )
    .bind(token_hash.as_bytes())
    .fetch_one(pool)
    .await?;
    Ok(known)
}

pub(crate) async fn delete_empty_classes_before(
    tx: &mut PgConnection,
    before: &str,
) -> Result<u64> {
    let done = sqlx::query(
        "DELETE FROM classes WHERE created_at < $1
         AND NOT EXISTS (SELECT 1 FROM games g WHERE g.class_id = classes.id)",
    )
    .bind(before)
    .execute(&mut *tx)
    .await?;
    Ok(done.rows_affected())
}
