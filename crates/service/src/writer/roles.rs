//! Who may do what in a seated game (the side to move, the host).

use super::{Hot, Result};
use crate::ServiceError;
use crate::domain::SeatToken;
use crate::rules::Side;
use crate::store::WriteTx;

/// Whom a request speaks for in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// A game without seats: anyone may do anything.
    Anyone,
    /// A side's token.
    Side(Side),
    /// The host's token.
    Host,
}

/// The role a token gives in this game: the host's for its class host's
/// token too. [`ServiceError::Unauthorized`] for
/// no token, or one that is no token of any game or class; [`ServiceError::Forbidden`]
/// for another game's or another class's.
pub(super) async fn role(tx: &mut WriteTx, hot: &Hot, token: Option<&SeatToken>) -> Result<Role> {
    if !hot.game.seated {
        return Ok(Role::Anyone);
    }
    let hash = token.ok_or(ServiceError::Unauthorized)?.hash();
    let seats = hot.seats.unwrap_or_default();
    let held = if seats.host == Some(hash) {
        Some(Role::Host)
    } else {
        Side::BOTH
            .iter()
            .find(|s| seats.sides[s.index()] == hash)
            .map(|&side| Role::Side(side))
    };
    if let Some(held) = held {
        // On PostgreSQL another instance may have given this seat a new
        // token since this game was read into memory (the game's version
        // does not move for it): the database says whether it is still
        // the seat's. On SQLite this writer made every change itself.
        if !tx.is_postgres() {
            return Ok(held);
        }
        let game = hot.game.id.to_string();
        return match tx.seat_of(&hash).await? {
            Some((id, _)) if id == game => Ok(held),
            Some(_) => Err(ServiceError::Forbidden),
            None => Err(ServiceError::Unauthorized),
        };
    }
    // The host of the game's class is its host too; another class's is
    // another's.
    match tx.class_host_of(&hash, hot.game.id).await? {
        Some(true) => return Ok(Role::Host),
        Some(false) => return Err(ServiceError::Forbidden),
        None => {}
    }
    if tx.seat_of(&hash).await?.is_some() {
        return Err(ServiceError::Forbidden);
    }
    Err(ServiceError::Unauthorized)
}

/// Check a token for what only the host may do (stop, delete): the host's
/// token, or anyone in a game without seats, or either side's in a game
/// seated before hosts existed.
pub(super) async fn check_host(
    tx: &mut WriteTx,
    hot: &Hot,
    token: Option<&SeatToken>,
    action: &'static str,
) -> Result<()> {
    match role(tx, hot, token).await? {
        Role::Anyone | Role::Host => Ok(()),
        Role::Side(_) if hot.seats.is_some_and(|s| s.host.is_none()) => Ok(()),
        Role::Side(_) => Err(ServiceError::HostOnly(action)),
    }
}
