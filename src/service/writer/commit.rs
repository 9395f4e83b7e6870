//! The end of a batch: render and keep the answers, commit, tell the live
//! feed, answer every request and keep the games in memory.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use lru::LruCache;
use tokio::sync::oneshot;

use super::{Hot, Job, Played, Result, Thrown, Touched, batch_error};
use crate::domain::GameId;
use crate::service::Answer;
use crate::service::feed::{FeedItem, FeedMove, Hub};
use crate::store::{StoreError, StoredAnswer, WriteTx};

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

/// Render and keep the answers, commit, then tell the live feed, answer
/// every request and keep the games in memory (only after a durable
/// commit).
pub(super) async fn finish(
    mut tx: WriteTx,
    cache: &mut LruCache<GameId, Hot>,
    touched: HashMap<GameId, Touched>,
    jobs: Vec<Job>,
    played: Vec<Result<Played>>,
    commits: &AtomicU64,
    hub: &Hub,
) {
    let feed = feed_items(&played);
    enum Reply {
        Throw(oneshot::Sender<Result<Thrown>>, Result<Thrown>),
        Stop(oneshot::Sender<Result<Answer>>, Result<Answer>),
    }
    let mut replies = Vec::with_capacity(jobs.len());
    let mut failed = None;
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
                        let answer = render(&game, &record);
                        if failed.is_none()
                            && let Err(e) = tx
                                .keep_answer(
                                    id,
                                    &key,
                                    &StoredAnswer {
                                        request_hash,
                                        location: answer.location.clone(),
                                        etag: answer.etag.clone(),
                                        body: answer.body.clone(),
                                    },
                                )
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
                        let answer = render(&game, &narration);
                        if let Some((key, request_hash)) = keep
                            && failed.is_none()
                            && let Err(e) = tx
                                .keep_answer(
                                    id,
                                    &key,
                                    &StoredAnswer {
                                        request_hash,
                                        location: answer.location.clone(),
                                        etag: answer.etag.clone(),
                                        body: answer.body.clone(),
                                    },
                                )
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
        }
    }
    let committed = match failed {
        Some(e) => {
            let _ = tx.rollback().await;
            Err(e)
        }
        None => tx.commit().await,
    };
    match committed {
        Ok(()) => {
            commits.fetch_add(1, Ordering::Relaxed);
            // In commit order, before any answer: a client that has its
            // answer and then subscribes reads the move from the store.
            for (id, item) in feed {
                hub.publish(id, || vec![item]);
            }
            for (id, t) in touched {
                cache.put(id, t.hot);
            }
        }
        Err(ref e) => tracing::warn!(error = %e, "a batch failed to commit"),
    }
    for reply in replies {
        // A request that failed on its own keeps its own error; the others
        // get the batch's error when the commit failed.
        let lost = |r: &std::result::Result<(), StoreError>| r.as_ref().err().map(batch_error);
        match reply {
            Reply::Throw(tx, answer) => {
                let answer = match (answer, lost(&committed)) {
                    (Ok(_), Some(e)) => Err(e),
                    (answer, _) => answer,
                };
                let _ = tx.send(answer);
            }
            Reply::Stop(tx, stopped) => {
                let stopped = match (stopped, lost(&committed)) {
                    (Ok(_), Some(e)) => Err(e),
                    (stopped, _) => stopped,
                };
                let _ = tx.send(stopped);
            }
        }
    }
}
