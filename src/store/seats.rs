//! Seats: the SHA-256 hashes of a seated game's tokens (each side's and
//! the host's), and which game and side a token hash belongs to.

use sqlx::Row;

use super::{Result, StoreError, WriteTx, corrupt};
use crate::domain::{GameId, Seats};

impl WriteTx {
    /// Insert the hashes of a seated game's tokens: each side's and the
    /// host's (a game seated before hosts existed has none).
    ///
    /// # Errors
    /// Any database error (a token hash another seat has included).
    pub(super) async fn insert_seats(&mut self, id: GameId, seats: &Seats) -> Result<()> {
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
                .bind(hash.as_slice())
                .execute(&mut *self.0)
                .await
                .map_err(StoreError::from_sqlx)?;
        }
        Ok(())
    }

    /// The game and side a token hash is the seat of, if any.
    ///
    /// # Errors
    /// Any database error.
    pub async fn seat_of(&mut self, token_hash: &[u8; 32]) -> Result<Option<(String, String)>> {
        let row = sqlx::query("SELECT game_id, side FROM seats WHERE token_hash = ?")
            .bind(token_hash.as_slice())
            .fetch_optional(&mut *self.0)
            .await
            .map_err(StoreError::from_sqlx)?;
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
        let rows = sqlx::query("SELECT side, token_hash FROM seats WHERE game_id = ?")
            .bind(id.to_string())
            .fetch_all(&mut *self.0)
            .await
            .map_err(StoreError::from_sqlx)?;
        if rows.is_empty() {
            return Ok(None);
        }
        let mut seats = Seats {
            sides: [[0; 32]; 2],
            host: None,
        };
        for row in &rows {
            let side: String = row.try_get("side")?;
            let hash: Vec<u8> = row.try_get("token_hash")?;
            let hash: [u8; 32] = hash
                .try_into()
                .map_err(|_| corrupt("a seat hash is not 32 bytes".to_owned()))?;
            match side.as_str() {
                "A" => seats.sides[0] = hash,
                "B" => seats.sides[1] = hash,
                "host" => seats.host = Some(hash),
                _ => return Err(corrupt(format!("seat of side {side:?}"))),
            }
        }
        Ok(Some(seats))
    }
}
