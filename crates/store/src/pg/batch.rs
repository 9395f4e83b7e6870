//! A batch's statements on PostgreSQL: its games locked (and their
//! versions read), the games to play read, the batch saved with a
//! compare-and-set, and its writes announced to every instance.

use std::collections::HashMap;

use sqlx::postgres::PgPool;
use sqlx::{PgConnection, Postgres, QueryBuilder, Row};

use super::game_from_row;
use crate::domain::LoggedMove;
use crate::domain::RulesStated;
use crate::domain::{Game, GameId, MoveRecord, Version};
use crate::games::GameToPlay;
use crate::moves::record;
use crate::{Result, StoreError, corrupt, from_json};

/// Lock the rows of these games (those that exist) until the transaction
/// ends, in one order, by id: two transactions locking overlapping games
/// this way wait for each other instead of deadlocking, whatever order
/// their requests came in.
pub(crate) async fn lock_games(
    tx: &mut PgConnection,
    ids: &[GameId],
) -> Result<HashMap<GameId, Version>> {
    let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
    let rows: Vec<(String, i64)> =
        sqlx::query_as("SELECT id, version FROM games WHERE id = ANY($1) ORDER BY id FOR UPDATE")
            .bind(&ids)
            .fetch_all(&mut *tx)
            .await?;
    rows.into_iter()
        .map(|(id, version)| {
            let id = GameId::parse(&id).map_err(|_| corrupt(format!("bad game id {id:?}")))?;
            Ok((id, Version::from_stored(version)))
        })
        .collect()
}

/// The games of `ids` that exist, each with its last move (one statement)
/// and, for the seated ones, its seats (one more).
pub(crate) async fn games_to_play(
    tx: &mut PgConnection,
    ids: &[GameId],
) -> Result<Vec<GameToPlay>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
    let rows = sqlx::query(
        "SELECT g.id, g.created_at, g.updated_at, g.setup, g.seed, g.seeded, g.seated, \
                g.sides_report_throws, g.state, g.version, g.status, g.told_facts, \
                g.rules_stated, m.n, m.body \
         FROM games g LEFT JOIN LATERAL \
             (SELECT n, body FROM moves WHERE moves.game_id = g.id ORDER BY n DESC LIMIT 1) m \
             ON true \
         WHERE g.id = ANY($1)",
    )
    .bind(&ids)
    .fetch_all(&mut *tx)
    .await?;
    let mut games = Vec::with_capacity(rows.len());
    for row in &rows {
        let game = game_from_row(row)?;
        let previous = match row.try_get::<Option<i64>, _>("n")? {
            None => None,
            Some(n) => {
                let mut narration =
                    record(n, row.try_get::<&[u8], _>("body")?, &game.setup)?.narration;
                narration.rules_stated = from_json(row.try_get::<&str, _>("rules_stated")?)?;
                Some(narration)
            }
        };
        games.push(GameToPlay {
            game,
            seats: None,
            previous,
        });
    }
    let seated: Vec<String> = games
        .iter()
        .filter(|g| g.game.seated)
        .map(|g| g.game.id.to_string())
        .collect();
    if !seated.is_empty() {
        let rows: Vec<(String, String, Vec<u8>)> = sqlx::query_as(
            "SELECT game_id, side, token_hash FROM seats WHERE game_id = ANY($1) ORDER BY game_id",
        )
        .bind(&seated)
        .fetch_all(&mut *tx)
        .await?;
        let mut by_game: HashMap<String, Vec<(String, Vec<u8>)>> = HashMap::new();
        for (game, side, hash) in rows {
            by_game.entry(game).or_default().push((side, hash));
        }
        for g in games.iter_mut().filter(|g| g.game.seated) {
            let rows = by_game.remove(&g.game.id.to_string()).unwrap_or_default();
            g.seats = crate::seats::seats_from_rows(rows)?;
        }
    }
    Ok(games)
}

pub(crate) async fn save_batch(
    tx: &mut PgConnection,
    updated_at: &str,
    games: &[(&Game, Version, Option<&RulesStated>)],
    moves: &[(GameId, &MoveRecord)],
) -> Result<bool> {
    if !games.is_empty() {
        let rows = crate::games::batch_rows(games)?;
        let mut update = QueryBuilder::<Postgres>::new(
            "UPDATE games SET state = v.state, version = v.version, status = v.status, \
             told_facts = v.told_facts, rules_stated = v.rules_stated, updated_at = ",
        );
        update.push_bind(updated_at);
        update.push(" FROM (");
        update.push_values(rows, |mut b, row| {
            b.push_bind(row.0)
                .push_bind(row.1)
                .push_bind(row.2)
                .push_bind(row.3)
                .push_bind(row.4)
                .push_bind(row.5)
                .push_bind(row.6);
        });
        update.push(
            ") AS v (id, read_version, state, version, status, told_facts, rules_stated) \
             WHERE games.id = v.id AND games.version = v.read_version",
        );
        let done = update.build().execute(&mut *tx).await?;
        if usize::try_from(done.rows_affected()).ok() != Some(games.len()) {
            return Ok(false);
        }
        announce(tx, games).await?;
    }
    if !moves.is_empty() {
        let rows = moves
            .iter()
            .map(|(id, record)| {
                (
                    id.to_string(),
                    i64::from(record.n),
                    LoggedMove::of(record).encode(),
                )
            })
            .collect::<Vec<_>>();
        let mut insert = QueryBuilder::<Postgres>::new("INSERT INTO moves (game_id, n, body) ");
        insert.push_values(rows, |mut b, row| {
            b.push_bind(row.0).push_bind(row.1).push_bind(row.2);
        });
        insert.build().execute(&mut *tx).await?;
    }
    Ok(true)
}

/// The channel on which each instance's writer announces, on commit, the
/// games a batch wrote: the payload is the game's id and the version it
/// had before the batch (`"<id> <version>"`), so a listener reads the moves
/// after it.
pub const WRITES_CHANNEL: &str = "zohn_ahl_writes";

/// Announce the games a batch wrote on [`WRITES_CHANNEL`] (PostgreSQL
/// delivers the notifications when, and only if, the transaction commits).
async fn announce(
    tx: &mut PgConnection,
    games: &[(&Game, Version, Option<&RulesStated>)],
) -> Result<()> {
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
