//! Join codes: each side's seat of a seated game has a short code a pupil
//! types to open her seat while the game is not finished. A code is made
//! when the game is created and when its seat is given a new token; the
//! store keeps the seat's token sealed beside it.

use crate::domain::{GameId, JoinCode, SeatToken};
use crate::rules::Side;
use crate::store::WriteTx;
use crate::{Created, Result, Service, ServiceError};

/// Fresh codes tried before giving up (a code another seat has is drawn
/// again: with 30⁶ codes, a second draw is already rare).
const TRIES: usize = 16;

/// A seat a join code opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Joined {
    /// The game.
    pub game: GameId,
    /// The seat's side.
    pub side: Side,
    /// The seat's token now.
    pub token: SeatToken,
}

/// Give `side`'s seat of game `id` a fresh join code, no other seat's,
/// keeping `token` (the seat's token now) sealed beside it: the code, or
/// `None` when the store keeps no sealed token (opened without a secret
/// key).
///
/// # Errors
/// Storage errors; [`crate::store::StoreError::Busy`] when no fresh code is
/// free after a few tries.
pub(crate) async fn give_code(
    tx: &mut WriteTx,
    id: GameId,
    side: Side,
    token: &SeatToken,
) -> Result<Option<JoinCode>> {
    if !tx.keeps_join_codes() {
        return Ok(None);
    }
    for _ in 0..TRIES {
        let code = JoinCode::fresh();
        if tx.keep_join_code(id, side.index(), &code, token).await? {
            return Ok(Some(code));
        }
    }
    Err(ServiceError::Store(crate::store::StoreError::Busy))
}

/// Give both seats of a seated game just made their join codes, in `tx`
/// (nothing for a game without seats): every way a game is made, alone or
/// in a class, gives them.
///
/// # Errors
/// As [`give_code`].
pub(crate) async fn give_codes(tx: &mut WriteTx, created: &mut Created) -> Result<()> {
    if let Some(tokens) = &mut created.tokens {
        let id = created.game.id;
        let a = give_code(tx, id, Side::A, &tokens.sides[0]).await?;
        let b = give_code(tx, id, Side::B, &tokens.sides[1]).await?;
        tokens.join_codes = a.zip(b).map(|(a, b)| [a, b]);
    }
    Ok(())
}

impl Service {
    /// The seat `code` opens: its game, side and token now, if it is a
    /// side's code in a game not finished.
    ///
    /// # Errors
    /// [`ServiceError::JoinCodeUnknown`] otherwise (whether the code was
    /// ever one is not told); storage errors.
    pub async fn join(&self, code: &JoinCode) -> Result<Joined> {
        let seat = self
            .store()
            .joined_seat(code)
            .await?
            .ok_or(ServiceError::JoinCodeUnknown)?;
        let side = Side::BOTH
            .get(seat.side)
            .copied()
            .ok_or(ServiceError::JoinCodeUnknown)?;
        Ok(Joined {
            game: seat.game,
            side,
            token: seat.token,
        })
    }
}
