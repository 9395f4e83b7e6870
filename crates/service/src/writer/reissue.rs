//! A side's seat given a new token (the host's, as a stop): the old token
//! is no seat's from the commit on, in the store and in the memory, and
//! the seat has a new join code (the old one opens nothing).

use std::sync::atomic::{AtomicU64, Ordering};

use lru::LruCache;

use super::roles::check_host;
use super::{Hot, Result, batch_error, load};
use crate::domain::{GameId, SeatToken};
use crate::rules::Side;
use crate::store::Store;
use crate::{Reissued, ServiceError};

/// Give `side`'s seat of game `id` a new token, committed alone: the
/// host's token (see [`check_host`]); [`ServiceError::NotSeated`] for a
/// game without seats. The game's memory keeps the new hash.
pub(super) async fn reissue(
    store: &Store,
    cache: &mut LruCache<GameId, Hot>,
    id: GameId,
    side: Side,
    token: Option<&SeatToken>,
    commits: &AtomicU64,
) -> Result<Reissued> {
    let mut tx = store.begin().await.map_err(|e| batch_error(&e))?;
    let mut hot = match cache.pop(&id) {
        Some(hot) => hot,
        None => load(&mut tx, id).await?,
    };
    if let Err(e) = check_host(&mut tx, &hot, token, "give a seat a new token").await {
        cache.put(id, hot);
        return Err(e);
    }
    let Some(mut seats) = hot.seats.filter(|_| hot.game.seated) else {
        cache.put(id, hot);
        return Err(ServiceError::NotSeated);
    };
    let fresh = SeatToken::fresh();
    let hash = fresh.hash();
    if !tx.replace_seat_token(id, side.index(), &hash).await? {
        return Err(ServiceError::GameNotFound(id));
    }
    let join_code = crate::join::give_code(&mut tx, id, side, &fresh).await?;
    tx.commit().await.map_err(|e| {
        tracing::warn!(error = %e, "a seat's new token failed to commit");
        batch_error(&e)
    })?;
    commits.fetch_add(1, Ordering::Relaxed);
    seats.sides[side.index()] = hash;
    hot.seats = Some(seats);
    cache.put(id, hot);
    Ok(Reissued {
        side,
        token: fresh,
        join_code,
    })
}
