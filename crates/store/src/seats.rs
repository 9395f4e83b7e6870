//! Seats: the SHA-256 hashes of a seated game's tokens (each side's and
//! the host's), and which game and side a token hash belongs to.

use sqlx::Row;

use super::{Result, Tx, WriteTx, corrupt, pg};
use crate::domain::{GameId, Seats, TokenHash};

/// How the `side` column names each side's seat, A first (the host's is
/// `host`).
pub(super) const SIDES: [&str; 2] = ["A", "B"];

impl WriteTx {
    /// Insert the hashes of a seated game's tokens: each side's and the
    /// host's (a game seated before hosts existed has none).
    ///
    /// # Errors
    /// Any database error (a token hash another seat has included).
    pub(super) async fn insert_seats(&mut self, id: GameId, seats: &Seats) -> Result<()> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(_) => return Err(super::StoreError::Unavailable),
        };
        let rows = [
            ("A", Some(seats.sides[0])),
            ("B", Some(seats.sides[1])),
            ("host", seats.host),
        ];
        for (side, hash) in rows {
            let Some(hash) = hash else { continue };
            sqlx::query("INSERT INTO seats (game_id, side, token_hash) VALUES (?, ?, ?)")
                .bind(id.to_string())
                .bind(side)
                .bind(hash.as_bytes())
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    /// Give a side's seat of a seated game a new token hash: the old token
    /// is no seat's from the commit on. `false` when the game has no such
    /// seat (it is not seated, or gone).
    ///
    /// # Errors
    /// Any database error.
    pub async fn replace_seat_token(
        &mut self,
        id: GameId,
        side: usize,
        hash: &TokenHash,
    ) -> Result<bool> {
        let side = SIDES.get(side).copied().unwrap_or_default();
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::replace_seat_token(tx, id, side, hash).await,
        };
        let done = sqlx::query("UPDATE seats SET token_hash = ? WHERE game_id = ? AND side = ?")
            .bind(hash.as_bytes())
            .bind(id.to_string())
            .bind(side)
            .execute(&mut **tx)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The game and side a token hash is the seat of, if any.
    ///
    /// # Errors
    /// Any database error.
    pub async fn seat_of(&mut self, token_hash: &TokenHash) -> Result<Option<(String, String)>> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::seat_of(tx, token_hash).await,
        };
        let row = sqlx::query("SELECT game_id, side FROM seats WHERE token_hash = ?")
            .bind(token_hash.as_bytes())
            .fetch_optional(&mut **tx)
            .await?;
        row.map(|r| Ok((r.try_get("game_id")?, r.try_get("side")?)))
            .transpose()
    }

    /// The hashes of a seated game's tokens: each side's and, for a game
    /// seated since hosts exist, the host's.
    ///
    /// # Errors
    /// Any database error; [`StoreError::Corrupt`] for a seat row that is
    /// not a side's or the host's 32-byte hash.
    pub async fn seats(&mut self, id: GameId) -> Result<Option<Seats>> {
        let tx = match &mut self.0 {
            Tx::Sqlite(tx) => tx,
            Tx::Postgres(tx) => return pg::seats(tx, id).await,
        };
        let rows = sqlx::query("SELECT side, token_hash FROM seats WHERE game_id = ?")
            .bind(id.to_string())
            .fetch_all(&mut **tx)
            .await?;
        let rows = rows
            .iter()
            .map(|r| Ok((r.try_get("side")?, r.try_get("token_hash")?)))
            .collect::<Result<Vec<(String, Vec<u8>)>>>()?;
        seats_from_rows(rows)
    }
}

/// A game's seats from its rows of `seats` (side, token hash); `None` when
/// it has none.
///
/// # Errors
/// [`StoreError::Corrupt`] for a row that is not a side's or the host's
/// 32-byte hash.
pub(super) fn seats_from_rows(rows: Vec<(String, Vec<u8>)>) -> Result<Option<Seats>> {
    if rows.is_empty() {
        return Ok(None);
    }
    let mut seats = Seats::default();
    for (side, hash) in rows {
        let hash = TokenHash::from_stored(&hash)
            .ok_or_else(|| corrupt("a seat hash is not 32 bytes".to_owned()))?;
        match side.as_str() {
            "A" => seats.sides[0] = hash,
            "B" => seats.sides[1] = hash,
            "host" => seats.host = Some(hash),
            _ => return Err(corrupt(format!("seat of side {side:?}"))),
        }
    }
    Ok(Some(seats))
}
