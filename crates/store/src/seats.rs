//! Seats: the SHA-256 hashes of a seated game's tokens (each side's and
//! the host's), and which game and side a token hash belongs to; a side's
//! join code, with its token sealed under the server's secret key (the
//! token is never stored in clear: the associated data bind the sealed
//! token to its game, side and code).

use super::rows::{self, CodeRow, SeatRow};
use super::seam::{in_tx, on_readers};
use super::secret::SecretKey;
use super::{Result, Store, StoreError, Tx, WriteTx, corrupt};
use crate::domain::{GameId, JoinCode, SeatToken, Seats, TokenHash};

/// A seat a join code opens: its game, its side's index (A is 0) and its
/// token, opened.
#[derive(Debug)]
pub struct JoinedSeat {
    /// The game.
    pub game: GameId,
    /// The side's index: 0 for A, 1 for B.
    pub side: usize,
    /// The seat's token now.
    pub token: SeatToken,
}

/// What a sealed token is bound to: its game, side and code, each part
/// preceded by its length.
fn associated(game: GameId, side: &str, code: &str) -> Vec<u8> {
    let game = game.to_string();
    let mut data = Vec::with_capacity(96);
    for part in [
        b"zohn-ahl seat token 1".as_slice(),
        game.as_bytes(),
        side.as_bytes(),
        code.as_bytes(),
    ] {
        data.extend_from_slice(&(part.len() as u64).to_be_bytes());
        data.extend_from_slice(part);
    }
    data
}

/// The seat a row holds, its token opened with `secret`; `None` (logged)
/// when it cannot be opened (sealed under another key file, or altered).
pub(super) fn opened(
    secret: &SecretKey,
    code: &JoinCode,
    CodeRow {
        game_id,
        side,
        sealed_token: sealed,
        token_nonce: nonce,
    }: CodeRow,
) -> Result<Option<JoinedSeat>> {
    let id = rows::game_id(&game_id)?;
    let Some(index) = SIDES.iter().position(|s| *s == side) else {
        return Err(corrupt(format!("join code of side {side:?}")));
    };
    let Some(token) = secret.open(&associated(id, &side, code.as_str()), &nonce, &sealed) else {
        tracing::warn!(
            game = %id,
            "a seat's sealed token cannot be opened with this server's secret key (it was sealed under another key file): its join code opens nothing"
        );
        return Ok(None);
    };
    let token = String::from_utf8(token).map_err(|_| corrupt("a sealed token".to_owned()))?;
    Ok(Some(JoinedSeat {
        game: id,
        side: index,
        token: SeatToken::from_sent(token),
    }))
}

impl Store {
    /// The seat `code` opens, if it is a side's code in a game not
    /// finished, with its token opened with the server's key. `None` as
    /// well for a store opened without a key.
    ///
    /// # Errors
    /// Any database error.
    pub async fn joined_seat(&self, code: &JoinCode) -> Result<Option<JoinedSeat>> {
        let Some(secret) = &self.secret else {
            return Ok(None);
        };
        let row: Option<CodeRow> = on_readers!(self, c => Ok(sqlx::query_as(
            "SELECT s.game_id, s.side, s.sealed_token, s.token_nonce
             FROM seats s JOIN games g ON g.id = s.game_id
             WHERE s.join_code = $1 AND g.status = 'in_progress'
               AND s.sealed_token IS NOT NULL AND s.token_nonce IS NOT NULL",
        )
        .bind(code.as_str())
        .fetch_optional(c)
        .await?))?;
        row.map_or(Ok(None), |row| opened(secret, code, row))
    }
}

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
        let rows = [
            ("A", Some(seats.sides[0])),
            ("B", Some(seats.sides[1])),
            ("host", seats.host),
        ];
        for (side, hash) in rows {
            let Some(hash) = hash else { continue };
            in_tx!(self, c => sqlx::query(
                "INSERT INTO seats (game_id, side, token_hash) VALUES ($1, $2, $3)",
            )
            .bind(id.to_string())
            .bind(side)
            .bind(hash.as_bytes())
            .execute(c)
            .await
        .map(drop))?;
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
        let done = in_tx!(self, c => sqlx::query(
            "UPDATE seats SET token_hash = $1 WHERE game_id = $2 AND side = $3",
        )
        .bind(hash.as_bytes())
        .bind(id.to_string())
        .bind(side)
        .execute(c)
        .await
        .map(|done| done.rows_affected()))?;
        Ok(done == 1)
    }

    /// Whether this is a PostgreSQL transaction (whose database other
    /// instances may write meanwhile).
    #[must_use]
    pub fn is_postgres(&self) -> bool {
        matches!(self.0, Tx::Postgres(_))
    }

    /// Whether this transaction can keep a seat's token sealed for a join
    /// code: the store was opened with a secret key.
    #[must_use]
    pub fn keeps_join_codes(&self) -> bool {
        self.3.is_some()
    }

    /// Give a side's seat `code` and keep `token` (the seat's token now)
    /// sealed beside it, replacing its code and token before. `false`,
    /// and nothing written, when another seat has that code.
    ///
    /// # Errors
    /// [`StoreError::NoSecretKey`] for a store opened without a key; any
    /// database error.
    pub async fn keep_join_code(
        &mut self,
        id: GameId,
        side: usize,
        code: &JoinCode,
        token: &SeatToken,
    ) -> Result<bool> {
        let side = SIDES.get(side).copied().unwrap_or_default();
        let secret = self.3.as_ref().ok_or(StoreError::NoSecretKey)?;
        let (nonce, sealed) = secret
            .seal(
                &associated(id, side, code.as_str()),
                token.as_str().as_bytes(),
            )
            .ok_or_else(|| corrupt("a token could not be sealed".to_owned()))?;
        in_tx!(self, c => {
            let taken: bool =
                sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM seats WHERE join_code = $1)")
                    .bind(code.as_str())
                    .fetch_one(&mut *c)
                    .await?;
            if taken {
                return Ok(false);
            }
            let done = sqlx::query(
                "UPDATE seats SET join_code = $1, sealed_token = $2, token_nonce = $3
                 WHERE game_id = $4 AND side = $5",
            )
            .bind(code.as_str())
            .bind(&sealed)
            .bind(&nonce)
            .bind(id.to_string())
            .bind(side)
            .execute(c)
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// The game and side a token hash is the seat of, if any.
    ///
    /// # Errors
    /// Any database error.
    pub async fn seat_of(&mut self, token_hash: &TokenHash) -> Result<Option<(String, String)>> {
        Ok(in_tx!(self, c => sqlx::query_as(
            "SELECT game_id, side FROM seats WHERE token_hash = $1",
        )
        .bind(token_hash.as_bytes())
        .fetch_optional(c)
        .await)?)
    }

    /// The hashes of a seated game's tokens: each side's and, for a game
    /// seated since hosts exist, the host's.
    ///
    /// # Errors
    /// Any database error; [`StoreError::Corrupt`] for a seat row that is
    /// not a side's or the host's 32-byte hash.
    pub async fn seats(&mut self, id: GameId) -> Result<Option<Seats>> {
        let rows: Vec<SeatRow> = in_tx!(self, c => sqlx::query_as(
            "SELECT side, token_hash FROM seats WHERE game_id = $1",
        )
        .bind(id.to_string())
        .fetch_all(c)
        .await)?;
        rows::seats_from_rows(rows)
    }
}
