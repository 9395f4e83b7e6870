//! The rows both stores read, each declared once (`sqlx::FromRow`, whose
//! derived impl decodes a SQLite row and a PostgreSQL row alike), and their
//! conversion to the domain's records. The two schemas have the same
//! columns in each store's types (flags and counts are integers, times are
//! RFC 3339 text, hashes and bodies bytes), so one row type fits both.

use crate::domain::LoggedMove;
use crate::domain::{
    Class, ClassId, Game, GameId, MoveRecord, Seats, Seed, Setup, Timestamp, TokenHash, Version,
};
use crate::{Result, corrupt, from_json};

/// The `SELECT` of every column of a game, as [`GameRow`] reads it,
/// followed by `$rest` (`WHERE ...`), at compile time.
macro_rules! select_game {
    ($rest:literal) => {
        concat!(
            "SELECT id, created_at, updated_at, setup, seed, seeded, seated, \
             sides_report_throws, state, version, told_facts FROM games ",
            $rest
        )
    };
}
pub(crate) use select_game;

/// A game's row.
#[derive(sqlx::FromRow)]
pub(crate) struct GameRow {
    id: String,
    created_at: String,
    updated_at: String,
    setup: String,
    seed: String,
    seeded: i64,
    seated: i64,
    sides_report_throws: i64,
    state: String,
    version: i64,
    told_facts: String,
}

impl GameRow {
    /// The game the row holds.
    ///
    /// # Errors
    /// [`crate::StoreError::Corrupt`] for a bad id or JSON column.
    pub(crate) fn game(self) -> Result<Game> {
        Ok(Game {
            id: game_id(&self.id)?,
            created_at: Timestamp::from_stored(self.created_at),
            updated_at: Timestamp::from_stored(self.updated_at),
            setup: from_json(&self.setup)?,
            seed: Seed::from_stored(self.seed),
            seeded: self.seeded != 0,
            seated: self.seated != 0,
            sides_report_throws: self.sides_report_throws != 0,
            state: from_json(&self.state)?,
            version: Version::from_stored(self.version),
            told_facts: from_json(&self.told_facts)?,
        })
    }
}

/// A stored game id, parsed.
///
/// # Errors
/// [`crate::StoreError::Corrupt`] when it is not a game id.
pub(crate) fn game_id(id: &str) -> Result<GameId> {
    GameId::parse(id).map_err(|_| corrupt(format!("bad game id {id:?}")))
}

/// Stored game ids, those that parse.
pub(crate) fn game_ids(ids: &[String]) -> Vec<GameId> {
    ids.iter().filter_map(|id| GameId::parse(id).ok()).collect()
}

/// Move `n` from its stored bytes.
///
/// # Errors
/// [`crate::StoreError::Corrupt`] for a bad number or body.
pub(crate) fn record(n: i64, body: &[u8], setup: &Setup) -> Result<MoveRecord> {
    let n = u32::try_from(n).map_err(|_| corrupt(format!("move number {n}")))?;
    let logged = LoggedMove::decode(body).map_err(|e| corrupt(format!("move {n}: {e}")))?;
    Ok(logged.record(n, setup))
}

/// A move's row: its number and its body in the log's binary form.
#[derive(sqlx::FromRow)]
pub(crate) struct MoveRow {
    pub(crate) n: i64,
    pub(crate) body: Vec<u8>,
}

/// An answer as a row holds it: the body sealed (`nonce` set) or, kept by
/// a version before, in clear (`nonce` NULL); what it is about as
/// [`crate::domain::Subject`]'s text, and the strings its sealing was
/// bound to when it was kept before subjects (empty since).
#[derive(sqlx::FromRow)]
pub(crate) struct KeptRow {
    pub(crate) request_hash: Vec<u8>,
    pub(crate) subject: String,
    pub(crate) bound_location: String,
    pub(crate) bound_etag: String,
    pub(crate) answer: Vec<u8>,
    pub(crate) nonce: Option<Vec<u8>>,
}

/// A creation's kept answer: [`KeptRow`] with the game it made.
#[derive(sqlx::FromRow)]
pub(crate) struct CreateRow {
    pub(crate) game_id: String,
    #[sqlx(flatten)]
    pub(crate) kept: KeptRow,
}

/// An answer kept in clear by a version before, to be sealed.
#[derive(sqlx::FromRow)]
pub(crate) struct ClearRow {
    pub(crate) game_id: String,
    pub(crate) key: String,
    pub(crate) request_hash: Vec<u8>,
    pub(crate) subject: String,
    pub(crate) answer: Vec<u8>,
}

/// A seat's row: its side (`A`, `B` or `host`) and its token's hash.
#[derive(sqlx::FromRow)]
pub(crate) struct SeatRow {
    pub(crate) side: String,
    pub(crate) token_hash: Vec<u8>,
}

/// A game's seats from its rows of `seats`; `None` when it has none.
///
/// # Errors
/// [`crate::StoreError::Corrupt`] for a row that is not a side's or the
/// host's 32-byte hash.
pub(crate) fn seats_from_rows(rows: Vec<SeatRow>) -> Result<Option<Seats>> {
    if rows.is_empty() {
        return Ok(None);
    }
    let mut seats = Seats::default();
    for SeatRow { side, token_hash } in rows {
        let hash = TokenHash::from_stored(&token_hash)
            .ok_or_else(|| corrupt("a seat hash is not 32 bytes".to_owned()))?;
        match side.as_str() {
            "A" => seats.sides[0] = hash,
            "B" => seats.sides[1] = hash,
            "host" => seats.host = Some(hash),
            _ => return Err(corrupt(format!("seat of side {side:?}"))),
        }
    }
    Ok(Some(seats))
}

/// A seat's row as a join code finds it: game, side, sealed token and its
/// nonce.
#[derive(sqlx::FromRow)]
pub(crate) struct CodeRow {
    pub(crate) game_id: String,
    pub(crate) side: String,
    pub(crate) sealed_token: Vec<u8>,
    pub(crate) token_nonce: Vec<u8>,
}

/// A class's row.
#[derive(sqlx::FromRow)]
pub(crate) struct ClassRow {
    id: String,
    name: String,
    host_hash: Vec<u8>,
    created_at: String,
}

impl ClassRow {
    /// The class and its host's token hash.
    ///
    /// # Errors
    /// [`crate::StoreError::Corrupt`] for a bad id or hash.
    pub(crate) fn class(self) -> Result<(Class, TokenHash)> {
        let id =
            ClassId::parse(&self.id).map_err(|_| corrupt(format!("bad class id {:?}", self.id)))?;
        let hash = TokenHash::from_stored(&self.host_hash)
            .ok_or_else(|| corrupt("a class's host hash is not 32 bytes".to_owned()))?;
        Ok((
            Class {
                id,
                name: self.name,
                created_at: Timestamp::from_stored(self.created_at),
            },
            hash,
        ))
    }
}
