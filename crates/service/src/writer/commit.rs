//! The end of a batch: render and keep the answers, commit, keep the games
//! in memory; then, once the write-ahead log is synced, tell the live feed
//! and answer every request (`deliver`, while the writer goes on with the
//! next batch).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use lru::LruCache;
use tokio::sync::{mpsc, oneshot};

use super::{Hot, Job, Played, Result, Thrown, Touched, batch_error};
use crate::Answer;
use crate::domain::GameId;
use crate::feed::{FeedItem, FeedMove, Hub};
use crate::idempotency::kept;
use crate::store::{Store, StoreError, WriteTx};

/// What the writer hands to [`deliver`], in commit order.
pub(super) enum Delivery {
    /// A committed batch: its feed items and its answers, to be given once
    /// the log is synced.
    Batch {
        feed: Vec<(GameId, FeedItem)>,
        replies: Vec<Reply>,
    },
    /// Answered once every batch handed over before it is delivered.
    Flush(oneshot::Sender<()>),
}

/// Where the writer hands its committed batches.
pub(super) type Outbox = mpsc::UnboundedSender<Delivery>;

/// One request's answer, waiting for its batch to be durable.
pub(super) enum Reply {
    Throw(oneshot::Sender<Result<Thrown>>, Result<Thrown>),
    Stop(oneshot::Sender<Result<Answer>>, Result<Answer>),
}

impl Reply {
    /// Answer. A request that failed on its own keeps its own error; the
    /// others get `lost`'s error when the batch was not made durable.
    fn send(self, lost: Option<&StoreError>) {
        match self {
            Reply::Throw(tx, answer) => {
                let answer = match (answer, lost) {
                    (Ok(_), Some(e)) => Err(batch_error(e)),
                    (answer, _) => answer,
                };
                let _ = tx.send(answer);
            }
            Reply::Stop(tx, stopped) => {
                let stopped = match (stopped, lost) {
                    (Ok(_), Some(e)) => Err(batch_error(e)),
                    (stopped, _) => stopped,
                };
                let _ = tx.send(stopped);
            }
        }
    }
}

/// Wait until every batch handed to the deliverer so far is delivered.
pub(super) async fn flush(out: &Outbox) {
    let (flushed, done) = oneshot::channel();
    if out.send(Delivery::Flush(flushed)).is_ok() {
        let _ = done.await;
    }
}

/// Deliver the writer's committed batches: take every batch committed
/// since the last sync, sync the write-ahead log once for all of them (one
/// fsync, while the writer writes the next batch), then, in commit order,
/// tell the live feed of each batch's moves and answer its requests. Runs
/// until the writer is gone.
pub(super) async fn deliver(
    store: Store,
    hub: Arc<Hub>,
    mut batches: mpsc::UnboundedReceiver<Delivery>,
) {
    let mut group = Vec::new();
    while batches.recv_many(&mut group, usize::MAX).await > 0 {
        let started = std::time::Instant::now();
        let synced = store.sync_log().await;
        crate::metrics::log_synced(started.elapsed());
        for delivery in group.drain(..) {
            match delivery {
                Delivery::Batch { feed, replies } => {
                    if synced.is_ok() {
                        // Before any answer: a client that has its answer
                        // and then subscribes reads the move from the store.
                        for (id, item) in feed {
                            hub.publish(id, || vec![item]);
                        }
                    }
                    for reply in replies {
                        reply.send(synced.as_ref().err());
                    }
                }
                Delivery::Flush(done) => {
                    let _ = done.send(());
                }
            }
        }
    }
}

/// What the batch tells the live feed: each move, and the end of each game
/// it finished. Made for every game, since a subscriber may come between
/// now and the commit; the hub drops the items of games nobody watches.
fn feed_items(played: &[Result<Played>]) -> Vec<(GameId, FeedItem)> {
    let mut items = Vec::new();
    for p in played {
        match p {
            Ok(Played::Throw { game, record, .. }) => {
                items.push((
                    game.id,
                    FeedItem::Move(Arc::new(FeedMove::new(
                        Arc::clone(game),
                        Arc::clone(record),
                    ))),
                ));
                if game.state.is_finished() {
                    items.push((game.id, FeedItem::End(Arc::clone(game))));
                }
            }
            Ok(Played::Stop { game, .. }) => {
                items.push((game.id, FeedItem::End(Arc::clone(game))));
            }
            _ => {}
        }
    }
    items
}

/// Render and keep the answers, commit and keep the games in memory; then
/// hand the feed items and the answers to [`deliver`], which gives them
/// once the commit is on the disk.
pub(super) async fn finish(
    mut tx: WriteTx,
    cache: &mut LruCache<GameId, Hot>,
    touched: HashMap<GameId, Touched>,
    jobs: Vec<Job>,
    played: Vec<Result<Played>>,
    commits: &AtomicU64,
    out: &Outbox,
) {
    let feed = feed_items(&played);
    let thrown = played
        .iter()
        .filter(|p| matches!(p, Ok(Played::Throw { .. })))
        .count();
    let mut replies = Vec::with_capacity(jobs.len());
    let mut failed = None;
    // The clock that stamps the answers kept (and says which have expired).
    let at = time::OffsetDateTime::now_utc();
    for (job, result) in jobs.into_iter().zip(played) {
        match job {
            Job::Throw {
                id, render, reply, ..
            } => {
                let answer = match result {
                    Ok(Played::Throw {
                        game,
                        record,
                        keep: None,
                    }) => Ok(Thrown::Played(game, record)),
                    Ok(Played::Throw {
                        game,
                        record,
                        keep: Some((key, request_hash)),
                    }) => {
                        let answer = super::thrown_answer(&game, &record, render);
                        if failed.is_none()
                            && let Err(e) = tx
                                .keep_answer(id, &key, &kept(&answer, &request_hash), at)
                                .await
                        {
                            failed = Some(e);
                        }
                        Ok(Thrown::Answer(answer))
                    }
                    Ok(Played::Replay(answer)) => Ok(Thrown::Answer(answer)),
                    Ok(Played::Stop { .. }) => Err(StoreError::Unavailable.into()),
                    Err(e) => Err(e),
                };
                replies.push(Reply::Throw(reply, answer));
            }
            Job::Stop {
                id, render, reply, ..
            } => {
                let stopped = match result {
                    Ok(Played::Stop {
                        game,
                        narration,
                        keep,
                    }) => {
                        let answer = super::stopped_answer(&game, &narration, render);
                        if let Some((key, request_hash)) = keep
                            && failed.is_none()
                            && let Err(e) = tx
                                .keep_answer(id, &key, &kept(&answer, &request_hash), at)
                                .await
                        {
                            failed = Some(e);
                        }
                        Ok(answer)
                    }
                    Ok(Played::Replay(answer)) => Ok(answer),
                    Ok(Played::Throw { .. }) => Err(StoreError::Unavailable.into()),
                    Err(e) => Err(e),
                };
                replies.push(Reply::Stop(reply, stopped));
            }
            Job::Delete { reply, .. } => {
                let _ = reply.send(Err(StoreError::Unavailable.into()));
            }
            Job::Purge { reply, .. } => {
                let _ = reply.send(Err(StoreError::Unavailable.into()));
            }
            Job::Reissue { reply, .. } => {
                let _ = reply.send(Err(StoreError::Unavailable.into()));
            }
        }
    }
    let committed = match failed {
        Some(e) => {
            let _ = tx.rollback().await;
            Err(e)
        }
        None => tx.commit_unsynced().await,
    };
    match committed {
        Ok(()) => {
            commits.fetch_add(1, Ordering::Relaxed);
            crate::metrics::batch_committed(thrown);
            for (id, t) in touched {
                cache.put(id, t.hot);
            }
            if let Err(mpsc::error::SendError(Delivery::Batch { replies, .. })) =
                out.send(Delivery::Batch { feed, replies })
            {
                // No deliverer (it ended early): the batch cannot be told
                // durable.
                tracing::error!("a committed batch has nobody to deliver it");
                for reply in replies {
                    reply.send(Some(&StoreError::Unavailable));
                }
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "a batch failed to commit");
            for reply in replies {
                reply.send(Some(&e));
            }
        }
    }
}
