//! The exclusive jobs: a deletion and a purge (and a seat's new token, in
//! `reissue`), each committed alone; the
//! games they remove leave the writer's memory, and their live-feed
//! watchers are told once the removal is durable.

use std::sync::atomic::{AtomicU64, Ordering};

use lru::LruCache;

use super::roles::check_host;
use super::{Hot, Job, Result, batch_error, load};
use crate::ServiceError;
use crate::domain::{GameId, SeatToken, Timestamp};
use crate::feed::{Deletion, FeedItem, Hub};
use crate::store::{Store, StoreError};

/// Write an exclusive job (a deletion, a purge) in a transaction of its own.
pub(super) async fn write_alone(
    store: &Store,
    cache: &mut LruCache<GameId, Hot>,
    job: Job,
    commits: &AtomicU64,
    hub: &Hub,
) {
    match job {
        Job::Delete { id, token, reply } => {
            let deleted = delete(store, cache, id, token.as_ref(), commits).await;
            if deleted.is_ok() {
                hub.publish(id, || vec![FeedItem::Deleted(Deletion::Request)]);
            }
            let _ = reply.send(deleted);
        }
        Job::Purge {
            games,
            games_before,
            keys_before,
            reply,
        } => {
            let purged = purge(
                store,
                cache,
                &games,
                games_before.as_ref(),
                &keys_before,
                commits,
            )
            .await;
            if let Ok((ids, _)) = &purged {
                for &id in ids {
                    hub.publish(id, || vec![FeedItem::Deleted(Deletion::Retention)]);
                }
            }
            let _ = reply.send(purged.map(|(ids, keys)| (ids.len(), keys)));
        }
        Job::Reissue {
            id,
            side,
            token,
            reply,
        } => {
            let _ = reply.send(
                super::reissue::reissue(store, cache, id, side, token.as_ref(), commits).await,
            );
        }
        job @ (Job::Throw { .. } | Job::Stop { .. }) => {
            job.fail(StoreError::Unavailable.into());
        }
    }
}

/// Delete a game, its moves, seats and keys: the host's token (see
/// [`check_host`]). The game leaves the memory.
pub(super) async fn delete(
    store: &Store,
    cache: &mut LruCache<GameId, Hot>,
    id: GameId,
    token: Option<&SeatToken>,
    commits: &AtomicU64,
) -> Result<()> {
    let mut tx = store.begin().await.map_err(|e| batch_error(&e))?;
    let hot = match cache.pop(&id) {
        Some(hot) => hot,
        None => load(&mut tx, id).await?,
    };
    if let Err(e) = check_host(&mut tx, &hot, token, "delete this game").await {
        cache.put(id, hot);
        return Err(e);
    }
    if !tx.delete_game(id).await? {
        return Err(ServiceError::GameNotFound(id));
    }
    tx.commit().await.map_err(|e| {
        tracing::warn!(error = %e, "a deletion failed to commit");
        batch_error(&e)
    })?;
    commits.fetch_add(1, Ordering::Relaxed);
    Ok(())
}

/// Delete the games of a retention purge that are still untouched, the
/// classes made before then that have no game left, and the expired
/// idempotency answers: the games deleted, and how many keys.
pub(super) async fn purge(
    store: &Store,
    cache: &mut LruCache<GameId, Hot>,
    games: &[GameId],
    games_before: Option<&Timestamp>,
    keys_before: &Timestamp,
    commits: &AtomicU64,
) -> Result<(Vec<GameId>, u64)> {
    let mut tx = store.begin().await.map_err(|e| batch_error(&e))?;
    let deleted = match games_before {
        Some(before) if !games.is_empty() => {
            // In the batches' order, so that a purge and another
            // instance's batch on the same games do not deadlock.
            tx.lock_games(games).await?;
            tx.delete_games_untouched_since(games, before).await?
        }
        _ => Vec::new(),
    };
    // A class goes with the last of its games, once past the retention.
    if let Some(before) = games_before {
        tx.delete_empty_classes_before(before).await?;
    }
    let keys = tx.delete_keys_before(keys_before).await?;
    tx.commit().await.map_err(|e| {
        tracing::warn!(error = %e, "a purge failed to commit");
        batch_error(&e)
    })?;
    commits.fetch_add(1, Ordering::Relaxed);
    for id in &deleted {
        cache.pop(id);
    }
    Ok((deleted, keys))
}
