//! The live feed's fan-out: every move and every end of a game, as the
//! writer commits it, to each of the game's subscribers.
//!
//! The writer publishes after each durable commit, in commit order: one
//! [`FeedItem::Move`] per move, then [`FeedItem::End`] for a game the batch
//! finished (won, or stopped). A deletion (by request, or by the
//! retention purge) publishes [`FeedItem::Deleted`] after its commit: the
//! game's watchers are told and their streams end. A subscriber subscribes
//! first and reads the
//! store second, so a move committed in between reaches it twice (once in
//! the read, once from the channel) and never not at all; it skips the
//! second by move number. A subscriber that falls behind the channel's
//! buffer reads the moves it missed from the store again.
//!
//! Subscribers are bounded per game and in total ([`FeedLimits`]); a
//! subscription beyond either bound is refused with [`FeedFull`]. A game's
//! channel exists only while it has subscribers, so publishing for a game
//! nobody watches costs one map lookup.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use bytes::Bytes;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

use super::ServiceError;
use crate::domain::{Game, GameId, MoveRecord};
use crate::narration::{Audience, Detail};
use crate::store::Store;

/// Moves read from the store at a time while catching up.
const STORE_PAGE: u32 = 100;

/// Most subscribers of one game, by default.
pub const FEED_PER_GAME: usize = 1000;
/// Most subscribers in all, by default.
pub const FEED_TOTAL: usize = 4000;
/// Items a game's channel holds for a slow subscriber before it must read
/// the store again. The channel keeps its last items (each with the
/// move's renderings) until they are overwritten, whoever has read them,
/// so this is also what every watched game keeps in memory.
pub const CHANNEL_BUFFER: usize = 32;

/// The bounds on feed subscribers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeedLimits {
    /// Most subscribers of one game (at least 1).
    pub per_game: usize,
    /// Most subscribers in all (at least 1).
    pub total: usize,
}

impl Default for FeedLimits {
    fn default() -> Self {
        Self {
            per_game: FEED_PER_GAME,
            total: FEED_TOTAL,
        }
    }
}

/// A subscription refused: the game's or the server's subscribers are at
/// their bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FeedFull {
    /// The game has as many subscribers as it may.
    #[error("this game's live feed has its most subscribers ({0}); try again later")]
    Game(usize),
    /// The server has as many subscribers as it may.
    #[error("the server's live feeds have their most subscribers ({0}); try again later")]
    Server(usize),
}

/// A committed move, with its framing for each audience, detail level and
/// format made once and shared by every subscriber.
#[derive(Debug)]
pub struct FeedMove {
    /// The game (after the move, or later: only its setup is read).
    pub game: Arc<Game>,
    /// The move (shared with the throw's answer).
    pub record: Arc<MoveRecord>,
    /// The framed event, per audience, detail level and format: what is
    /// written to each subscriber's connection, shared (a `Bytes` clone
    /// copies nothing). Only the framed bytes are kept, not the move's JSON
    /// apart: a game watched in both formats for one audience and detail
    /// renders the move twice.
    framed: [OnceLock<Bytes>; 18],
}

impl FeedMove {
    /// The event framed for `audience` at `detail` as an NDJSON line
    /// (`ndjson`) or a Server-Sent Event by `frame`, made by the first
    /// subscriber that asks and shared with the others without a copy.
    pub fn framed(
        &self,
        audience: Audience,
        detail: Detail,
        ndjson: bool,
        frame: impl FnOnce(&Game, &MoveRecord) -> Bytes,
    ) -> Bytes {
        let audience = match audience {
            Audience::Young => 0,
            Audience::General => 1,
            Audience::Scholar => 2,
        };
        let detail = match detail {
            Detail::Lesson => 0,
            Detail::Brief => 1,
            Detail::Full => 2,
        };
        self.framed[(audience * 3 + detail) * 2 + usize::from(ndjson)]
            .get_or_init(|| frame(&self.game, &self.record))
            .clone()
    }
}

/// What a game's subscribers receive.
#[derive(Clone, Debug)]
pub enum FeedItem {
    /// A move was committed.
    Move(Arc<FeedMove>),
    /// The game ended (won or stopped): the final game.
    End(Arc<Game>),
    /// The game was deleted: nothing more comes.
    Deleted(Deletion),
}

/// Why a game was deleted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deletion {
    /// By a request (`DELETE /v1/games/{id}`).
    Request,
    /// By the server's retention: finished, or left without a move, for
    /// longer than the retention period.
    Retention,
}

#[derive(Debug)]
struct Channel {
    sender: broadcast::Sender<FeedItem>,
    subscribers: usize,
}

#[derive(Debug, Default)]
struct Channels {
    games: HashMap<GameId, Channel>,
    total: usize,
}

/// The fan-out hub: one broadcast channel per watched game.
#[derive(Debug)]
pub struct Hub {
    limits: FeedLimits,
    channels: Mutex<Channels>,
}

/// One subscriber's place in the hub: its receiver, and its count, given
/// back when dropped.
#[derive(Debug)]
pub struct Subscription {
    hub: Arc<Hub>,
    id: GameId,
    /// The game's items from the moment of subscribing.
    pub receiver: broadcast::Receiver<FeedItem>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut channels = self
            .hub
            .channels
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        channels.total = channels.total.saturating_sub(1);
        crate::metrics::feed_subscribers(channels.total);
        if let Some(channel) = channels.games.get_mut(&self.id) {
            channel.subscribers = channel.subscribers.saturating_sub(1);
            if channel.subscribers == 0 {
                channels.games.remove(&self.id);
            }
        }
    }
}

impl Hub {
    /// A hub with these bounds (each at least 1).
    #[must_use]
    pub fn new(limits: FeedLimits) -> Arc<Self> {
        Arc::new(Self {
            limits: FeedLimits {
                per_game: limits.per_game.max(1),
                total: limits.total.max(1),
            },
            channels: Mutex::default(),
        })
    }

    /// The bounds.
    #[must_use]
    pub fn limits(&self) -> FeedLimits {
        self.limits
    }

    /// Subscribers now, in all and of `id`.
    #[must_use]
    pub fn subscribers(&self, id: GameId) -> (usize, usize) {
        let channels = self.channels.lock().unwrap_or_else(PoisonError::into_inner);
        let game = channels.games.get(&id).map_or(0, |c| c.subscribers);
        (channels.total, game)
    }

    /// Whether game `id` has subscribers.
    #[must_use]
    pub fn is_watched(&self, id: GameId) -> bool {
        self.channels
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .games
            .contains_key(&id)
    }

    /// Subscribe to game `id`'s items from now on.
    ///
    /// # Errors
    /// [`FeedFull`] when the game or the server is at its bound.
    pub fn subscribe(self: &Arc<Self>, id: GameId) -> Result<Subscription, FeedFull> {
        let mut channels = self.channels.lock().unwrap_or_else(PoisonError::into_inner);
        if channels.total >= self.limits.total {
            return Err(FeedFull::Server(self.limits.total));
        }
        let per_game = self.limits.per_game;
        let channel = channels.games.entry(id).or_insert_with(|| Channel {
            sender: broadcast::channel(CHANNEL_BUFFER).0,
            subscribers: 0,
        });
        if channel.subscribers >= per_game {
            return Err(FeedFull::Game(per_game));
        }
        channel.subscribers += 1;
        let receiver = channel.sender.subscribe();
        channels.total += 1;
        crate::metrics::feed_subscribers(channels.total);
        Ok(Subscription {
            hub: Arc::clone(self),
            id,
            receiver,
        })
    }

    /// End every subscriber's feed: the server is stopping. Each watch
    /// tells what it has and ends, so that its stream closes cleanly (an
    /// `EventSource` then reconnects with `Last-Event-ID`, to this server
    /// once it is back or to another instance) rather than holding the
    /// server's graceful stop until its timeout and being cut. Their places
    /// are given back as they go.
    pub fn close_all(&self) {
        let mut channels = self.channels.lock().unwrap_or_else(PoisonError::into_inner);
        // Dropping a game's sender closes its channel for every receiver.
        channels.games.clear();
    }

    /// Send `items` of game `id` to its subscribers, in order (nothing when
    /// nobody watches it).
    pub fn publish(&self, id: GameId, items: impl FnOnce() -> Vec<FeedItem>) {
        let channels = self.channels.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(channel) = channels.games.get(&id) {
            for item in items() {
                // No receiver left is not an error: the last one just went.
                let _ = channel.sender.send(item);
            }
        }
    }
}

impl FeedMove {
    /// A move to publish.
    #[must_use]
    pub fn new(game: Arc<Game>, record: Arc<MoveRecord>) -> Self {
        Self {
            game,
            record,
            framed: Default::default(),
        }
    }
}

/// What a watcher of a game is told, in order.
#[derive(Clone, Debug)]
pub enum WatchEvent {
    /// The game as it stood when the watch began (only without a resume
    /// point): its moves so far are `game.state.throws`.
    Snapshot(Box<Game>),
    /// A move.
    Move(Arc<FeedMove>),
    /// The game is over (won or stopped): the final game. Nothing follows.
    End(Arc<Game>),
    /// The game was deleted: `last` is the last move told. Nothing
    /// follows.
    Deleted {
        /// The game.
        id: GameId,
        /// The last move told (the resume point so far).
        last: u32,
        /// Why.
        why: Deletion,
    },
    /// Nothing happened for the keep-alive interval.
    Idle,
}

/// One watcher of one game: the snapshot or the moves after a resume
/// point, read from the store, then the live moves from the hub, each move
/// once and in order, and the end.
#[derive(Debug)]
pub struct Watch {
    subscription: Subscription,
    store: Store,
    id: GameId,
    follow: bool,
    keep_alive: std::time::Duration,
    snapshot: Option<Game>,
    /// The game as last read from the store (its setup renders the moves).
    game: Arc<Game>,
    /// The last move told.
    last: u32,
    /// Moves read from the store, not yet told.
    backlog: VecDeque<MoveRecord>,
    /// Whether the store may hold moves after the backlog.
    more_in_store: bool,
    /// Whether the game was over when last read: the end follows its moves.
    over: bool,
    /// Whether the game was found deleted while catching up.
    gone: bool,
    done: bool,
}

impl Watch {
    /// Begin watching: `subscription` must be taken before this reads the
    /// store, so that nothing committed in between is missed.
    pub(super) async fn begin(
        subscription: Subscription,
        store: Store,
        id: GameId,
        resume: Option<u32>,
        follow: bool,
        keep_alive: std::time::Duration,
    ) -> Result<Self, ServiceError> {
        let game = store
            .game(id)
            .await?
            .ok_or(ServiceError::GameNotFound(id))?;
        let over = game.state.is_finished();
        let (snapshot, last) = match resume {
            Some(n) => (None, n),
            None => (Some(game.clone()), game.state.throws),
        };
        Ok(Self {
            subscription,
            store,
            id,
            follow,
            keep_alive,
            snapshot,
            game: Arc::new(game),
            last,
            backlog: VecDeque::new(),
            more_in_store: true,
            over,
            gone: false,
            done: false,
        })
    }

    /// The next thing to tell; `None` once the stream is over (after the
    /// end, or, without `follow`, once what the store held is told);
    /// [`WatchEvent::Idle`] when nothing came for the keep-alive interval.
    ///
    /// # Errors
    /// Storage errors while catching up.
    pub async fn next(&mut self) -> Result<Option<WatchEvent>, ServiceError> {
        loop {
            if self.done {
                return Ok(None);
            }
            if self.gone {
                // The deletion is the newest item of the channel, unless
                // another process deleted the game.
                let mut why = Deletion::Request;
                loop {
                    match self.subscription.receiver.try_recv() {
                        Ok(FeedItem::Deleted(w)) => why = w,
                        Ok(_) | Err(broadcast::error::TryRecvError::Lagged(_)) => {}
                        Err(_) => break,
                    }
                }
                return Ok(Some(self.deleted(why)));
            }
            if let Some(game) = self.snapshot.take() {
                return Ok(Some(WatchEvent::Snapshot(Box::new(game))));
            }
            if let Some(record) = self.backlog.pop_front() {
                if record.n > self.last {
                    self.last = record.n;
                    let game = Arc::clone(&self.game);
                    return Ok(Some(WatchEvent::Move(Arc::new(FeedMove::new(
                        game,
                        Arc::new(record),
                    )))));
                }
                continue;
            }
            if self.more_in_store {
                let page = self.store.moves(self.id, self.last, STORE_PAGE).await?;
                self.more_in_store = page.len() == STORE_PAGE as usize;
                self.backlog.extend(page);
                continue;
            }
            if self.over {
                self.done = true;
                return Ok(Some(WatchEvent::End(Arc::clone(&self.game))));
            }
            if !self.follow {
                self.done = true;
                return Ok(None);
            }
            let received =
                tokio::time::timeout(self.keep_alive, self.subscription.receiver.recv()).await;
            let Ok(received) = received else {
                return Ok(Some(WatchEvent::Idle));
            };
            match received {
                Ok(FeedItem::Move(m)) => {
                    if m.record.n == self.last + 1 {
                        self.last = m.record.n;
                        return Ok(Some(WatchEvent::Move(m)));
                    }
                    if m.record.n > self.last {
                        // A move missed (it cannot be, but the store knows).
                        self.catch_up().await?;
                    }
                }
                Ok(FeedItem::End(game)) => {
                    if game.state.throws > self.last {
                        self.catch_up().await?;
                        continue;
                    }
                    self.done = true;
                    return Ok(Some(WatchEvent::End(game)));
                }
                Ok(FeedItem::Deleted(why)) => return Ok(Some(self.deleted(why))),
                Err(RecvError::Lagged(_)) => self.catch_up().await?,
                Err(RecvError::Closed) => {
                    self.done = true;
                    return Ok(None);
                }
            }
        }
    }

    /// The game is gone: the last thing told.
    fn deleted(&mut self, why: Deletion) -> WatchEvent {
        self.done = true;
        self.backlog.clear();
        WatchEvent::Deleted {
            id: self.id,
            last: self.last,
            why,
        }
    }

    /// Fallen behind the hub: read the game and the moves after the last
    /// told from the store again. A game no longer there was deleted (its
    /// deletion was among the items missed): the watch tells so next.
    async fn catch_up(&mut self) -> Result<(), ServiceError> {
        let Some(game) = self.store.game(self.id).await? else {
            self.gone = true;
            return Ok(());
        };
        self.over = game.state.is_finished();
        self.game = Arc::new(game);
        self.more_in_store = true;
        Ok(())
    }
}

/// Relay the moves other instances write (PostgreSQL) to this instance's
/// subscribers: on each announced write of a watched game, the moves after
/// the version it announces are read from the store and published, and the
/// game's end if it is over. A move this instance wrote itself arrives
/// twice and is skipped by number, like any move read twice. Returns at
/// once on SQLite; ends when the store is closed.
pub async fn relay_other_writers(store: Store, hub: Arc<Hub>) {
    let mut writes = match store.writes().await {
        Ok(Some(writes)) => writes,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(error = %e, "the live feed cannot listen to other instances' writes");
            return;
        }
    };
    let mut lost = false;
    loop {
        let (id, after) = match writes.next().await {
            Ok(write) => write,
            // The server is stopping: let the listener's connection go,
            // or closing the pool would wait for it.
            Err(_) if store.is_closed() => return,
            Err(e) => {
                tracing::warn!(error = %e, "the live feed lost other instances' writes");
                lost = true;
                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                continue;
            }
        };
        if std::mem::take(&mut lost) {
            tracing::info!("the live feed hears other instances' writes again");
        }
        if !hub.is_watched(id) {
            continue;
        }
        let (game, moves) = match (
            store.game(id).await,
            store.moves(id, after.get(), u32::MAX).await,
        ) {
            (Ok(Some(game)), Ok(moves)) => (Arc::new(game), moves),
            _ => continue,
        };
        let mut items: Vec<FeedItem> = moves
            .into_iter()
            .map(|m| FeedItem::Move(Arc::new(FeedMove::new(Arc::clone(&game), Arc::new(m)))))
            .collect();
        if game.state.is_finished() {
            items.push(FeedItem::End(game));
        }
        hub.publish(id, || items);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{FeedFull, FeedLimits, Hub};
    use crate::domain::GameId;

    #[test]
    fn subscribers_are_bounded_per_game_and_in_total_and_given_back_on_drop() {
        let hub = Hub::new(FeedLimits {
            per_game: 2,
            total: 3,
        });
        let (a, b) = (GameId::new(), GameId::new());
        let a1 = hub.subscribe(a).unwrap();
        let a2 = hub.subscribe(a).unwrap();
        assert_eq!(hub.subscribe(a).unwrap_err(), FeedFull::Game(2));
        let b1 = hub.subscribe(b).unwrap();
        assert_eq!(hub.subscribe(b).unwrap_err(), FeedFull::Server(3));
        assert_eq!(hub.subscribers(a), (3, 2));
        drop(a1);
        assert_eq!(hub.subscribers(a), (2, 1));
        let _a3 = hub.subscribe(a).unwrap();
        drop((a2, b1));
        assert_eq!(hub.subscribers(b), (1, 0));
    }
}
