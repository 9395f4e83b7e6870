//! The PostgreSQL pool: opened with the migrations applied, and its
//! failures told apart (busy, or the database unreachable).

use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};

use super::super::{Result, StoreError};

/// The embedded migrations of the PostgreSQL store.
pub(crate) static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

/// Connections of one instance's pool.
const POOL_SIZE: u32 = 8;

/// How long a request waits for one of the pool's connections (a free
/// one, or a new one opened) before it is answered busy, or unreachable
/// when no connection can be opened ([`told`]). It was 10 s: with the
/// server down every request waited that long to be told "busy".
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(3);

/// How long the start waits for the server's first connection: a server
/// starting beside the instance has this long to come up.
const START_TIMEOUT: Duration = Duration::from_secs(10);

/// How long [`told`] waits for a connection of its own.
const PROBE_TIMEOUT: Duration = Duration::from_secs(1);

/// A call on the pool's failure, told apart: a pool time-out (busy, as
/// `From<sqlx::Error>` says it) is [`StoreError::Unreachable`] when a
/// connection of its own cannot be opened either (sqlx retries a refused
/// connection until the time-out and keeps no error of it); busy when it
/// can, or when the server has its most connections. Only for calls whose
/// busy can be nothing but a pool time-out (a read, a transaction's start),
/// so that a lock conflict costs no connection.
pub(crate) async fn told<T>(
    pool: &PgPool,
    call: impl std::future::Future<Output = Result<T>>,
) -> Result<T> {
    match call.await {
        Err(StoreError::Busy) => Err(busy_or_unreachable(pool).await),
        done => done,
    }
}

async fn busy_or_unreachable(pool: &PgPool) -> StoreError {
    use sqlx::{ConnectOptions, Connection};
    match tokio::time::timeout(PROBE_TIMEOUT, pool.connect_options().connect()).await {
        Ok(Ok(probe)) => {
            let _ = probe.close().await;
            StoreError::Busy
        }
        // 53300 too_many_connections: reached, and full.
        Ok(Err(sqlx::Error::Database(db))) if db.code().as_deref() == Some("53300") => {
            StoreError::Busy
        }
        Ok(Err(e)) => StoreError::Unreachable(format!(
            "no connection of the pool within {ACQUIRE_TIMEOUT:?}, and a new one failed: {e}"
        )),
        Err(_) => StoreError::Unreachable(format!(
            "no connection of the pool within {ACQUIRE_TIMEOUT:?}, nor a new one within {PROBE_TIMEOUT:?}"
        )),
    }
}

/// Whether `url` names a PostgreSQL database.
#[must_use]
pub fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// The database URL as it may be logged: a password in it replaced by
/// `***`.
#[must_use]
pub fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let Some((userinfo, host)) = rest.split_once('@') else {
        return url.to_owned();
    };
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_owned(),
    }
}

/// Open the pool and apply the pending migrations (sqlx's PostgreSQL
/// migrator holds `pg_advisory_lock` meanwhile: instances started together
/// migrate one after the other, the later ones finding nothing to do).
pub(crate) async fn connect(url: &str) -> Result<PgPool> {
    let pool = PgPoolOptions::new()
        .max_connections(POOL_SIZE)
        .acquire_timeout(ACQUIRE_TIMEOUT)
        .connect_lazy(url)?;
    // The first connection, waited for as long as the start allows.
    let deadline = tokio::time::Instant::now() + START_TIMEOUT;
    loop {
        match pool.acquire().await {
            Ok(_) => break,
            Err(sqlx::Error::PoolTimedOut) if tokio::time::Instant::now() < deadline => {}
            Err(e) => return Err(e.into()),
        }
    }
    MIGRATOR.run(&pool).await?;
    Ok(pool)
}

/// Whether every embedded migration is applied.
pub(crate) async fn ready(pool: &PgPool) -> Result<bool> {
    let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE success")
        .fetch_one(pool)
        .await?;
    Ok(usize::try_from(applied).unwrap_or(0) >= MIGRATOR.iter().count())
}
