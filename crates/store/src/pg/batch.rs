//! A batch's writes announced to every instance on the database, and
//! each instance's listener of them.

use sqlx::PgConnection;
use sqlx::postgres::PgPool;

use crate::domain::{GameId, Version};
use crate::seam::BatchGames;
use crate::{Result, StoreError};

/// The channel on which each instance's writer announces, on commit, the
/// games a batch wrote: the payload is the game's id and the version it
/// had before the batch (`"<id> <version>"`), so a listener reads the moves
/// after it.
pub const WRITES_CHANNEL: &str = "zohn_ahl_writes";

/// Announce the games a batch wrote on [`WRITES_CHANNEL`] (PostgreSQL
/// delivers the notifications when, and only if, the transaction commits).
pub(super) async fn announce(tx: &mut PgConnection, games: &BatchGames<'_>) -> Result<()> {
    let payloads: Vec<String> = games
        .iter()
        .map(|(game, read_version, _)| format!("{} {read_version}", game.id))
        .collect();
    sqlx::query("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p")
        .bind(WRITES_CHANNEL)
        .bind(&payloads)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// The writes of every instance on the database (this one's included), as
/// each commits: see [`WRITES_CHANNEL`].
pub struct Writes(sqlx::postgres::PgListener);

impl std::fmt::Debug for Writes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Writes")
    }
}

impl Writes {
    pub(crate) async fn listen(pool: &PgPool) -> Result<Self> {
        let mut listener = sqlx::postgres::PgListener::connect_with(pool).await?;
        listener.listen(WRITES_CHANNEL).await?;
        Ok(Self(listener))
    }

    /// The next write: a game and the version it had before it. Waits;
    /// reconnects by itself after a lost connection (notifications sent
    /// meanwhile are lost: a subscriber then catches up from the log on
    /// its next move).
    ///
    /// # Errors
    /// Any database error.
    pub async fn next(&mut self) -> Result<(GameId, Version)> {
        loop {
            // The listener waits for its own connection, never for a lock:
            // no connection in time means the database cannot be reached,
            // not that it is busy (an operator's trial: "busy" was logged
            // every second while PostgreSQL was down).
            let note = self.0.recv().await.map_err(|e| match e {
                sqlx::Error::PoolTimedOut => {
                    StoreError::Unreachable("no connection to listen on came in time".to_owned())
                }
                e => StoreError::from(e),
            })?;
            let mut parts = note.payload().split(' ');
            if let (Some(id), Some(version)) = (parts.next(), parts.next())
                && let (Ok(id), Ok(version)) = (GameId::parse(id), version.parse())
            {
                return Ok((id, Version::new(version)));
            }
        }
    }
}
