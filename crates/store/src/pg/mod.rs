//! The PostgreSQL store: the same records as the SQLite store's, in
//! PostgreSQL's dialect (`$n` placeholders, `ON CONFLICT`, arrays), over one
//! pool. Several instances may share the database: every write is a
//! transaction (`READ COMMITTED`), a batch's games are saved with a
//! compare-and-set on their versions (a concurrent save of the same game
//! waits for the other transaction and then finds the version moved on),
//! and the migrations run under sqlx's advisory lock.

use sqlx::postgres::{PgPool, PgRow};
use sqlx::{PgConnection, Row};

use super::keys::{KeptRow, expired_before, game_id};
use super::moves::record;
use super::{Result, StoredAnswer, corrupt, from_json, to_json};
use crate::domain::Narration;
use crate::domain::{
    Game, GameId, IdempotencyKey, JoinCode, MoveRecord, Seats, Seed, Setup, Timestamp, TokenHash,
    Version,
};

mod batch;
pub(super) mod classes;
mod pool;

pub use batch::{WRITES_CHANNEL, Writes};
pub(super) use batch::{games_to_play, lock_games, save_batch};
pub(super) use pool::{MIGRATOR, connect, ready, told};
pub use pool::{is_postgres, redacted};

const SELECT_GAME: &str = "SELECT id, created_at, updated_at, setup, seed, seeded, seated, sides_report_throws, state, version, status, told_facts FROM games WHERE id = $1";

/// [`SELECT_GAME`], locking the row.
const SELECT_GAME_FOR_UPDATE: &str = "SELECT id, created_at, updated_at, setup, seed, seeded, seated, sides_report_throws, state, version, status, told_facts FROM games WHERE id = $1 FOR UPDATE";

fn game_from_row(row: &PgRow) -> Result<Game> {
    let id: String = row.try_get("id")?;
    Ok(Game {
        id: GameId::parse(&id).map_err(|_| corrupt(format!("bad game id {id:?}")))?,
        created_at: Timestamp::from_stored(row.try_get("created_at")?),
        updated_at: Timestamp::from_stored(row.try_get("updated_at")?),
        setup: from_json(row.try_get::<&str, _>("setup")?)?,
        seed: Seed::from_stored(row.try_get("seed")?),
        seeded: row.try_get::<i64, _>("seeded")? != 0,
        seated: row.try_get::<i64, _>("seated")? != 0,
        sides_report_throws: row.try_get::<i64, _>("sides_report_throws")? != 0,
        state: from_json(row.try_get::<&str, _>("state")?)?,
        version: Version::from_stored(row.try_get::<i64, _>("version")?),
        told_facts: from_json(row.try_get::<&str, _>("told_facts")?)?,
    })
}

fn kept_row(row: &PgRow) -> Result<KeptRow> {
    Ok(KeptRow {
        request_hash: row.try_get("request_hash")?,
        location: row.try_get("location")?,
        etag: row.try_get("etag")?,
        answer: row.try_get("answer")?,
        nonce: row.try_get("nonce")?,
    })
}

fn create_row(row: &PgRow) -> Result<(GameId, KeptRow)> {
    Ok((game_id(row.try_get("game_id")?)?, kept_row(row)?))
}

pub(super) async fn game(pool: &PgPool, id: GameId) -> Result<Option<Game>> {
    let row = sqlx::query(SELECT_GAME)
        .bind(id.to_string())
        .fetch_optional(pool)
        .await?;
    row.as_ref().map(game_from_row).transpose()
}

pub(super) async fn game_ids(pool: &PgPool) -> Result<Vec<GameId>> {
    let ids: Vec<String> = sqlx::query_scalar("SELECT id FROM games ORDER BY created_at, id")
        .fetch_all(pool)
        .await?;
    Ok(ids.iter().filter_map(|id| GameId::parse(id).ok()).collect())
}

async fn setup(pool: &PgPool, id: GameId) -> Result<Option<Setup>> {
    let setup: Option<String> = sqlx::query_scalar("SELECT setup FROM games WHERE id = $1")
        .bind(id.to_string())
        .fetch_optional(pool)
        .await?;
    setup.as_deref().map(from_json).transpose()
}

pub(super) async fn moves(
    pool: &PgPool,
    id: GameId,
    after: u32,
    limit: u32,
) -> Result<Vec<MoveRecord>> {
    let Some(setup) = setup(pool, id).await? else {
        return Ok(Vec::new());
    };
    let rows =
        sqlx::query("SELECT n, body FROM moves WHERE game_id = $1 AND n > $2 ORDER BY n LIMIT $3")
            .bind(id.to_string())
            .bind(i64::from(after))
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
    rows.iter()
        .map(|r| record(r.try_get("n")?, r.try_get::<&[u8], _>("body")?, &setup))
        .collect()
}

pub(super) async fn move_record(pool: &PgPool, id: GameId, n: u32) -> Result<Option<MoveRecord>> {
    let Some(setup) = setup(pool, id).await? else {
        return Ok(None);
    };
    let body: Option<Vec<u8>> =
        sqlx::query_scalar("SELECT body FROM moves WHERE game_id = $1 AND n = $2")
            .bind(id.to_string())
            .bind(i64::from(n))
            .fetch_optional(pool)
            .await?;
    body.map(|b| record(i64::from(n), &b, &setup)).transpose()
}

pub(super) async fn games_untouched_since(
    pool: &PgPool,
    before: &str,
    limit: u32,
) -> Result<Vec<GameId>> {
    let ids: Vec<String> = sqlx::query_scalar(
        "SELECT id FROM games WHERE updated_at < $1 ORDER BY updated_at LIMIT $2",
    )
    .bind(before)
    .bind(i64::from(limit))
    .fetch_all(pool)
    .await?;
    Ok(ids.iter().filter_map(|id| GameId::parse(id).ok()).collect())
}

// In a write transaction.

pub(super) async fn insert_game(
    tx: &mut PgConnection,
    game: &Game,
    seats: Option<&Seats>,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO games (id, created_at, updated_at, setup, seed, seeded, seated, sides_report_throws, state, version, status, told_facts)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(game.id.to_string())
    .bind(game.created_at.as_str())
    .bind(game.updated_at.as_str())
    .bind(to_json(&game.setup)?)
    .bind(game.seed.as_str())
    .bind(i64::from(game.seeded))
    .bind(i64::from(game.seated))
    .bind(i64::from(game.sides_report_throws))
    .bind(to_json(&game.state)?)
    .bind(game.version.to_stored())
    .bind(game.status())
    .bind(to_json(&game.told_facts)?)
    .execute(&mut *tx)
    .await?;
    if let Some(seats) = seats {
        let rows = [
            ("A", Some(seats.sides[0])),
            ("B", Some(seats.sides[1])),
            ("host", seats.host),
        ];
        for (side, hash) in rows {
            let Some(hash) = hash else { continue };
            sqlx::query("INSERT INTO seats (game_id, side, token_hash) VALUES ($1, $2, $3)")
                .bind(game.id.to_string())
                .bind(side)
                .bind(hash.as_bytes())
                .execute(&mut *tx)
                .await?;
        }
    }
    Ok(())
}

/// The game, read and locked (`FOR UPDATE`) until the transaction ends:
/// another instance's transaction on it waits, then reads it as this one
/// left it.
pub(super) async fn tx_game(tx: &mut PgConnection, id: GameId) -> Result<Option<Game>> {
    let row = sqlx::query(SELECT_GAME_FOR_UPDATE)
        .bind(id.to_string())
        .fetch_optional(&mut *tx)
        .await?;
    row.as_ref().map(game_from_row).transpose()
}

pub(super) async fn delete_game(tx: &mut PgConnection, id: GameId) -> Result<bool> {
    let done = sqlx::query("DELETE FROM games WHERE id = $1")
        .bind(id.to_string())
        .execute(&mut *tx)
        .await?;
    Ok(done.rows_affected() > 0)
}

pub(super) async fn last_narration(
    tx: &mut PgConnection,
    game: &Game,
) -> Result<Option<Narration>> {
    let row = sqlx::query(
        "SELECT m.n, m.body, g.rules_stated FROM moves m JOIN games g ON g.id = m.game_id
         WHERE m.game_id = $1 ORDER BY m.n DESC LIMIT 1",
    )
    .bind(game.id.to_string())
    .fetch_optional(&mut *tx)
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

pub(super) async fn seat_of(
    tx: &mut PgConnection,
    token_hash: &TokenHash,
) -> Result<Option<(String, String)>> {
    let row = sqlx::query("SELECT game_id, side FROM seats WHERE token_hash = $1")
        .bind(token_hash.as_bytes())
        .fetch_optional(&mut *tx)
        .await?;
    row.map(|r| Ok((r.try_get("game_id")?, r.try_get("side")?)))
        .transpose()
}

pub(super) async fn replace_seat_token(
    tx: &mut PgConnection,
    id: GameId,
    side: &str,
    hash: &TokenHash,
) -> Result<bool> {
    let done = sqlx::query("UPDATE seats SET token_hash = $1 WHERE game_id = $2 AND side = $3")
        .bind(hash.as_bytes())
        .bind(id.to_string())
        .bind(side)
        .execute(&mut *tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

pub(super) async fn keep_join_code(
    tx: &mut PgConnection,
    id: GameId,
    side: &str,
    code: &JoinCode,
    sealed: &[u8],
    nonce: &[u8],
) -> Result<bool> {
    let taken: Option<i32> = sqlx::query_scalar("SELECT 1 FROM seats WHERE join_code = $1")
        .bind(code.as_str())
        .fetch_optional(&mut *tx)
        .await?;
    if taken.is_some() {
        return Ok(false);
    }
    let done = sqlx::query(
        "UPDATE seats SET join_code = $1, sealed_token = $2, token_nonce = $3
         WHERE game_id = $4 AND side = $5",
    )
    .bind(code.as_str())
    .bind(sealed)
    .bind(nonce)
    .bind(id.to_string())
    .bind(side)
    .execute(&mut *tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

pub(super) async fn joined_seat(
    pool: &PgPool,
    code: &JoinCode,
) -> Result<Option<super::seats::CodeRow>> {
    Ok(sqlx::query_as(
        "SELECT s.game_id, s.side, s.sealed_token, s.token_nonce
         FROM seats s JOIN games g ON g.id = s.game_id
         WHERE s.join_code = $1 AND g.status = 'in_progress'
           AND s.sealed_token IS NOT NULL AND s.token_nonce IS NOT NULL",
    )
    .bind(code.as_str())
    .fetch_optional(pool)
    .await?)
}

pub(super) async fn seats(tx: &mut PgConnection, id: GameId) -> Result<Option<Seats>> {
    let rows = sqlx::query("SELECT side, token_hash FROM seats WHERE game_id = $1")
        .bind(id.to_string())
        .fetch_all(&mut *tx)
        .await?;
    let rows = rows
        .iter()
        .map(|r| Ok((r.try_get("side")?, r.try_get("token_hash")?)))
        .collect::<Result<Vec<(String, Vec<u8>)>>>()?;
    super::seats::seats_from_rows(rows)
}

pub(super) async fn idempotent_answer(
    tx: &mut PgConnection,
    id: GameId,
    key: &IdempotencyKey,
) -> Result<Option<KeptRow>> {
    let row = sqlx::query(
        "SELECT request_hash, location, etag, answer, nonce FROM idempotency_keys
         WHERE game_id = $1 AND key = $2 AND created_at > $3",
    )
    .bind(id.to_string())
    .bind(key.as_str())
    .bind(expired_before())
    .fetch_optional(&mut *tx)
    .await?;
    row.as_ref().map(kept_row).transpose()
}

/// Keep `answer` with its body sealed (`sealed`, under `nonce`).
pub(super) async fn keep_answer(
    tx: &mut PgConnection,
    id: GameId,
    key: &IdempotencyKey,
    answer: &StoredAnswer,
    sealed: &[u8],
    nonce: &[u8],
) -> Result<()> {
    sqlx::query("DELETE FROM idempotency_keys WHERE game_id = $1 AND created_at <= $2")
        .bind(id.to_string())
        .bind(expired_before())
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO idempotency_keys (game_id, key, request_hash, location, etag, answer, nonce, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (game_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash,
             location = EXCLUDED.location, etag = EXCLUDED.etag, answer = EXCLUDED.answer,
             nonce = EXCLUDED.nonce, created_at = EXCLUDED.created_at",
    )
    .bind(id.to_string())
    .bind(key.as_str())
    .bind(answer.request_hash.as_slice())
    .bind(&answer.location)
    .bind(&answer.etag)
    .bind(sealed)
    .bind(nonce)
    .bind(Timestamp::now().as_str().to_owned())
    .execute(&mut *tx)
    .await?;
    Ok(())
}

pub(super) async fn create_answer(
    tx: &mut PgConnection,
    key: &IdempotencyKey,
) -> Result<Option<(GameId, KeptRow)>> {
    let row = sqlx::query(
        "SELECT game_id, request_hash, location, etag, answer, nonce FROM create_keys
         WHERE key = $1 AND created_at > $2",
    )
    .bind(key.as_str())
    .bind(expired_before())
    .fetch_optional(&mut *tx)
    .await?;
    row.as_ref().map(create_row).transpose()
}

/// Keep `answer` with its body sealed (`sealed`, under `nonce`).
pub(super) async fn keep_create_answer(
    tx: &mut PgConnection,
    key: &IdempotencyKey,
    game: GameId,
    answer: &StoredAnswer,
    sealed: &[u8],
    nonce: &[u8],
) -> Result<()> {
    sqlx::query("DELETE FROM create_keys WHERE key = $1 OR created_at <= $2")
        .bind(key.as_str())
        .bind(expired_before())
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO create_keys (key, request_hash, game_id, location, etag, answer, nonce, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(key.as_str())
    .bind(answer.request_hash.as_slice())
    .bind(game.to_string())
    .bind(&answer.location)
    .bind(&answer.etag)
    .bind(sealed)
    .bind(nonce)
    .bind(Timestamp::now().as_str().to_owned())
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Seal every answer kept in clear by a version before (`nonce` NULL)
/// under `secret`, in one transaction; rows another instance is sealing
/// meanwhile are waited for and then found sealed. Returns how many were
/// sealed. (PostgreSQL keeps the rows' old versions until `VACUUM` reuses
/// their space.)
pub(super) async fn seal_clear_answers(
    pool: &PgPool,
    secret: &super::secret::SecretKey,
) -> Result<u64> {
    use super::keys::{Kept, seal};
    let mut tx = pool.begin().await?;
    let mut sealed = 0;
    for (kept, select, update) in [
        (
            Kept::Move,
            "SELECT game_id, key, request_hash, location, etag, answer FROM idempotency_keys
             WHERE nonce IS NULL FOR UPDATE",
            "UPDATE idempotency_keys SET answer = $1, nonce = $2 WHERE game_id = $3 AND key = $4",
        ),
        (
            Kept::Create,
            "SELECT game_id, key, request_hash, location, etag, answer FROM create_keys
             WHERE nonce IS NULL FOR UPDATE",
            "UPDATE create_keys SET answer = $1, nonce = $2 WHERE game_id = $3 AND key = $4",
        ),
    ] {
        let rows = sqlx::query(select).fetch_all(&mut *tx).await?;
        for row in &rows {
            let game = game_id(row.try_get("game_id")?)?;
            let key: String = row.try_get("key")?;
            let answer = StoredAnswer {
                request_hash: row.try_get("request_hash")?,
                location: row.try_get("location")?,
                etag: row.try_get("etag")?,
                body: row.try_get("answer")?,
            };
            let (nonce, body) = seal(Some(secret), kept, game, &key, &answer)?;
            sqlx::query(update)
                .bind(body)
                .bind(nonce)
                .bind(game.to_string())
                .bind(&key)
                .execute(&mut *tx)
                .await?;
            sealed += 1;
        }
    }
    tx.commit().await?;
    Ok(sealed)
}

pub(super) async fn delete_keys_before(tx: &mut PgConnection, before: &str) -> Result<u64> {
    let mut deleted = 0;
    for delete in [
        "DELETE FROM idempotency_keys WHERE created_at <= $1",
        "DELETE FROM create_keys WHERE created_at <= $1",
    ] {
        let done = sqlx::query(delete).bind(before).execute(&mut *tx).await?;
        deleted += done.rows_affected();
    }
    Ok(deleted)
}

pub(super) async fn delete_games_untouched_since(
    tx: &mut PgConnection,
    ids: &[GameId],
    before: &str,
) -> Result<Vec<GameId>> {
    let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
    let gone: Vec<String> =
        sqlx::query_scalar("DELETE FROM games WHERE updated_at < $1 AND id = ANY($2) RETURNING id")
            .bind(before)
            .bind(&ids)
            .fetch_all(&mut *tx)
            .await?;
    Ok(gone
        .iter()
        .filter_map(|id| GameId::parse(id).ok())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::redacted;

    #[test]
    fn a_logged_database_url_shows_no_password() {
        assert_eq!(
            redacted("postgres://zohn:s3cret@db:5432/games"),
            "postgres://zohn:***@db:5432/games"
        );
        assert_eq!(
            redacted("postgres://zohn@db/games"),
            "postgres://zohn@db/games"
        );
        assert_eq!(redacted("sqlite://zohn-ahl.db"), "sqlite://zohn-ahl.db");
    }
}
