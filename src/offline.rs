//! The commands that read or write a database without serving it:
//! `verify`, `backup`, `export` and `import`. Each opens the store without
//! the secret key (none reads an answer kept for a retry), and those that
//! only read refuse a SQLite file that is not there rather than make one.

use crate::server::ServerError;
use crate::service::{Service, ServiceError};
use crate::store::{Store, StoreError};

/// Check every game of the database at `url` (see [`Service::verify`]).
///
/// # Errors
/// [`ServerError`] when the database cannot be opened or read.
pub fn verify(url: &str) -> Result<(usize, Vec<String>), ServerError> {
    actix_web::rt::System::new().block_on(async move {
        existing(url)?;
        // Verifying reads no answer kept under an idempotency key.
        let store = Store::connect_with_key(url, None).await?;
        let result = Service::new(store.clone()).verify().await?;
        store.close().await;
        Ok(result)
    })
}

/// For a command that only reads a database: refuse a SQLite file that
/// does not exist rather than create an empty one.
fn existing(url: &str) -> Result<(), ServerError> {
    match Store::sqlite_file(url)? {
        Some(file) if !file.exists() => Err(ServerError::NoDatabase(file)),
        _ => Ok(()),
    }
}

/// `zohn-ahl backup`: copy the SQLite database at `url` to the new file
/// `to` (see [`Store::backup_to`]); the server may be serving it.
///
/// # Errors
/// [`ServerError`] when the database cannot be opened or copied.
pub fn backup(url: &str, to: &std::path::Path) -> Result<(), ServerError> {
    actix_web::rt::System::new().block_on(async move {
        if crate::store::is_postgres(url) {
            return Err(ServerError::Backup(StoreError::BackupOnPostgres));
        }
        existing(url)?;
        // Copying reads no answer kept under an idempotency key: they are
        // copied sealed, and opened by the key file kept apart.
        let store = Store::connect_with_key(url, None).await?;
        let copied = store.backup_to(to).await;
        store.close().await;
        copied.map_err(ServerError::Backup)
    })
}

/// `zohn-ahl export`: the games `ids` (every game when empty) of the
/// database at `url`, a line of NDJSON each, written to `out`. Returns how
/// many were written.
///
/// # Errors
/// [`ServerError`] when the database cannot be read, an id is not a game
/// id or names no game, or `out` cannot be written.
pub fn export(
    url: &str,
    ids: &[String],
    with_seats: bool,
    out: &mut dyn std::io::Write,
) -> Result<usize, ServerError> {
    actix_web::rt::System::new().block_on(async move {
        existing(url)?;
        let store = Store::connect_with_key(url, None).await?;
        let service = Service::new(store.clone());
        let ids = if ids.is_empty() {
            store.game_ids().await?
        } else {
            ids.iter()
                .map(|id| {
                    crate::domain::GameId::parse(id)
                        .map_err(|e| ServerError::Argument(format!("--game {id}: {e}")))
                })
                .collect::<Result<_, _>>()?
        };
        let mut written = 0;
        for id in ids {
            let Some(game) = service.export_game(id, with_seats).await? else {
                return Err(ServiceError::GameNotFound(id).into());
            };
            serde_json::to_writer(&mut *out, &game).map_err(std::io::Error::other)?;
            out.write_all(b"\n")?;
            written += 1;
        }
        out.flush()?;
        store.close().await;
        Ok(written)
    })
}

/// `zohn-ahl import`: every game of `input` (NDJSON, as `export` writes
/// it) into the database at `url`. Returns how many were imported and why
/// each other line was refused.
///
/// # Errors
/// [`ServerError`] when the database cannot be opened or `input` read.
pub fn import(
    url: &str,
    input: impl std::io::BufRead,
) -> Result<(usize, Vec<String>), ServerError> {
    actix_web::rt::System::new().block_on(async move {
        let store = Store::connect_with_key(url, None).await?;
        let service = Service::new(store.clone());
        let (mut imported, mut refused) = (0, Vec::new());
        for (i, line) in input.lines().enumerate() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let archived: Result<crate::service::archive::ArchivedGame, _> =
                serde_json::from_str(&line);
            let result = match archived {
                Ok(game) => service.import_game(game).await.map_err(|e| e.to_string()),
                Err(e) => Err(format!(
                    "not a game of format {}: {e}",
                    crate::service::archive::FORMAT
                )),
            };
            match result {
                Ok(_) => imported += 1,
                Err(why) => refused.push(format!("line {}: {why}", i + 1)),
            }
        }
        store.close().await;
        Ok((imported, refused))
    })
}
