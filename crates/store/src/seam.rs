//! The one seam between the two stores. Each statement the two dialects
//! share (most of them: SQLite takes PostgreSQL's `$n` placeholders, and
//! both take `ON CONFLICT`, `RETURNING` and `UPDATE ... FROM`) is written
//! once, in the store's method, as the body of [`on_readers!`] or
//! [`in_tx!`]; the macro compiles that body once for each database and runs
//! the one the store is on. What the dialects do differently is the
//! [`Dialect`] trait, which `sqlite::Sqlite` and `pg::Postgres` each
//! implement; a body reaches it through the type the macro names.
//!
//! Every `sqlx::Error` on either store becomes a [`crate::StoreError`]
//! through one `From` (busy, unreachable or neither), and reads on
//! PostgreSQL go through `pg::told`, which tells a pool time-out with the
//! server down from one with the server busy.

use std::collections::HashMap;

use crate::Result;
use crate::domain::{Game, GameId, RulesStated, Version};

/// Run `$body`, an expression of type `Result<T>` in which `$c` is the
/// store's pool of readers (a `&SqlitePool` or a `&PgPool`), on the
/// store's database.
macro_rules! on_readers {
    ($store:expr, $c:ident => $body:expr) => {
        match &$store.backend {
            $crate::Backend::Sqlite(pools) => {
                let $c = &pools.readers;
                $body
            }
            $crate::Backend::Postgres(pool) => {
                let $c = pool;
                $crate::pg::told(pool, async { $body }).await
            }
        }
    };
}
pub(crate) use on_readers;

/// Run `$body`, an expression in which `$c` is the write transaction's
/// connection (a `&mut SqliteConnection` or a `&mut PgConnection`) and
/// `$d`, if named, its [`Dialect`], in the transaction `$tx` (a
/// [`crate::WriteTx`]).
macro_rules! in_tx {
    ($tx:expr, $c:ident => $body:expr) => {
        $crate::seam::in_tx!($tx, $c, _D => $body)
    };
    ($tx:expr, $c:ident, $d:ident => $body:expr) => {
        match &mut $tx.0 {
            $crate::Tx::Sqlite(tx) => {
                #[allow(dead_code)]
                type $d = $crate::sqlite::Sqlite;
                let $c: &mut sqlx::SqliteConnection = &mut **tx;
                $body
            }
            $crate::Tx::Postgres(tx) => {
                #[allow(dead_code)]
                type $d = $crate::pg::Postgres;
                let $c: &mut sqlx::PgConnection = &mut **tx;
                $body
            }
        }
    };
}
pub(crate) use in_tx;

/// A batch's games as [`crate::WriteTx::save_batch`] takes them: each
/// game, the version it was read at and its memory of the rules stated.
pub(crate) type BatchGames<'a> = [(&'a Game, Version, Option<&'a RulesStated>)];

/// What the two stores do differently, each implemented once, in
/// `sqlite/` and in `pg/`.
pub(crate) trait Dialect {
    /// The database.
    type Db: sqlx::Database;

    /// The `SELECT` of a game by id (`$1`) inside a write transaction: on
    /// PostgreSQL it locks the row until the transaction ends (another
    /// instance's transaction on it waits); SQLite's write transaction
    /// holds the whole file.
    const SELECT_GAME_IN_TX: &'static str;

    /// Lock these games' rows until the transaction ends, all at once and
    /// in one order (by id), and read their versions (PostgreSQL); `None`
    /// on SQLite, whose only writer is this process's.
    async fn lock_games(
        c: &mut <Self::Db as sqlx::Database>::Connection,
        ids: &[GameId],
    ) -> Result<Option<HashMap<GameId, Version>>>;

    /// Tell the other instances on the database which games a batch wrote
    /// (PostgreSQL's `NOTIFY`, delivered on commit); nothing on SQLite.
    async fn announce(
        c: &mut <Self::Db as sqlx::Database>::Connection,
        games: &BatchGames<'_>,
    ) -> Result<()>;
}
