//! The small values a game is told apart by, each parsed once where it
//! enters (a header, a body, a row) and carried as its own type from there:
//! a game's version, an idempotency key, a game's seed, a timestamp, a
//! seat's token and its hash.

use std::fmt;

use sha2::{Digest, Sha256};

/// A game's version: how many changes it has stored (its moves, and a stop
/// that ended it early). It is the compare-and-set key of every write and,
/// quoted, the game's ETag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(u32);

impl Version {
    /// A new game's version: nothing stored yet.
    pub const NEW: Self = Self(0);

    /// The version after `changes` changes.
    #[must_use]
    pub const fn new(changes: u32) -> Self {
        Self(changes)
    }

    /// How many changes it counts.
    #[must_use]
    pub const fn get(self) -> u32 {
        self.0
    }

    /// The version after one more change.
    #[must_use]
    pub const fn next(self) -> Self {
        Self(self.0.saturating_add(1))
    }

    /// The version as a row stores it.
    #[must_use]
    pub fn to_stored(self) -> i64 {
        i64::from(self.0)
    }

    /// The version a row stores (a number out of range, which no write
    /// makes, reads as the largest version: it matches no request).
    #[must_use]
    pub fn from_stored(stored: i64) -> Self {
        Self(u32::try_from(stored).unwrap_or(u32::MAX))
    }

    /// The game's ETag at this version: the number, quoted (`"3"`).
    #[must_use]
    pub fn etag(self) -> String {
        format!("\"{}\"", self.0)
    }

    /// A version no game reaches: what a weak ETag in `If-Match` asks for,
    /// since the strong comparison (RFC 9110 section 13.1.1) matches no weak
    /// tag. A game's version counts its moves, far below it.
    pub const UNMATCHABLE: Self = Self(u32::MAX);

    /// The version a strong ETag names: the number, quoted or not, of at
    /// most nine digits; `None` for anything else, a weak tag (`W/"3"`)
    /// included.
    #[must_use]
    pub fn from_etag(text: &str) -> Option<Self> {
        Some(text.trim_matches('"'))
            .filter(|t| !t.starts_with("W/"))
            .filter(|t| !t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|t| t.parse::<u32>().ok())
            .map(Self)
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The key a client sends with a request (`Idempotency-Key`) so that a
/// retry of it gets the first answer: 1 to [`IdempotencyKey::MAX_CHARS`]
/// visible ASCII characters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IdempotencyKey(String);

/// A string that is not an idempotency key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("must be 1 to {} visible ASCII characters", IdempotencyKey::MAX_CHARS)]
pub struct BadIdempotencyKey;

impl IdempotencyKey {
    /// Most characters a key has.
    pub const MAX_CHARS: usize = 255;

    /// The pattern of a key, as JSON Schema reads it: 1 to
    /// [`IdempotencyKey::MAX_CHARS`] visible ASCII characters.
    #[must_use]
    pub fn pattern() -> String {
        format!("^[!-~]{{1,{}}}$", Self::MAX_CHARS)
    }

    /// The key `text` is.
    ///
    /// # Errors
    /// [`BadIdempotencyKey`] when it is empty, longer than
    /// [`IdempotencyKey::MAX_CHARS`] or has anything but visible ASCII.
    pub fn parse(text: &str) -> Result<Self, BadIdempotencyKey> {
        if text.is_empty()
            || text.len() > Self::MAX_CHARS
            || !text.bytes().all(|b| b.is_ascii_graphic())
        {
            return Err(BadIdempotencyKey);
        }
        Ok(Self(text.to_owned()))
    }

    /// The key as sent.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for IdempotencyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A game's seed: the string its server throws are drawn from, 1 to
/// [`Seed::MAX_CHARS`] characters, chosen by the game's creator or, fresh,
/// by the server.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Seed(String);

/// A string that is not a seed: how many characters it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("must be from 1 to {} characters, got {chars}", Seed::MAX_CHARS)]
pub struct BadSeed {
    /// The characters it has.
    pub chars: usize,
}

impl Seed {
    /// Most characters a seed has.
    pub const MAX_CHARS: usize = 128;

    /// The seed a creator chose.
    ///
    /// # Errors
    /// [`BadSeed`] when it is empty or longer than [`Seed::MAX_CHARS`].
    pub fn parse(text: &str) -> Result<Self, BadSeed> {
        let chars = text.chars().count();
        if chars == 0 || chars > Self::MAX_CHARS {
            return Err(BadSeed { chars });
        }
        Ok(Self(text.to_owned()))
    }

    /// A fresh random seed, for a game created without one: 128 bits from
    /// the operating system's generator, as 32 hex digits.
    #[must_use]
    pub fn fresh() -> Self {
        let bytes: [u8; 16] = rand::random();
        Self(hex::encode(bytes))
    }

    /// The seed a row stores, as it was stored (every seed stored was
    /// parsed or made fresh when its game was created).
    #[must_use]
    pub fn from_stored(text: String) -> Self {
        Self(text)
    }

    /// The seed's text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A moment as a game records it: RFC 3339, UTC, milliseconds
/// (`2026-11-30T05:40:12.345Z`, as SQLite's
/// `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` writes it), so that two of them
/// compare as their texts do.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(String);

impl Timestamp {
    /// Now.
    #[must_use]
    pub fn now() -> Self {
        Self::at(time::OffsetDateTime::now_utc())
    }

    /// The moment `at`, in UTC.
    #[must_use]
    pub fn at(at: time::OffsetDateTime) -> Self {
        const FORMAT: &[time::format_description::BorrowedFormatItem<'_>] = time::macros::format_description!(
            "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
        );
        Self(
            at.to_offset(time::UtcOffset::UTC)
                .format(FORMAT)
                .unwrap_or_default(),
        )
    }

    /// The moment a row stores, as it was stored (written by
    /// [`Timestamp::at`] or by the database's own default, in the same form).
    #[must_use]
    pub fn from_stored(text: String) -> Self {
        Self(text)
    }

    /// The moment's text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A seat's secret token (a side's or the host's) as shown once at a
/// seated game's creation, or as a request sent it (`Authorization: Bearer`,
/// a tool's `token`). Any text may be sent; only the one a seat was given
/// hashes to that seat's [`TokenHash`].
#[derive(Clone, PartialEq, Eq)]
pub struct SeatToken(String);

impl SeatToken {
    /// A fresh token: 256 bits from the operating system's generator, as 64
    /// hex digits.
    #[must_use]
    pub fn fresh() -> Self {
        let bytes: [u8; 32] = rand::random();
        Self(hex::encode(bytes))
    }

    /// The token a request sent, as its surface read it.
    #[must_use]
    pub fn from_sent(text: String) -> Self {
        Self(text)
    }

    /// The token's text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The hash a seat keeps of its token (SHA-256).
    #[must_use]
    pub fn hash(&self) -> TokenHash {
        TokenHash(Sha256::digest(self.0.as_bytes()).into())
    }
}

/// Never shows the secret.
impl fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatToken(..)")
    }
}

/// The characters of a join code: Crockford's base 32 (which has no I,
/// L, O or U) without 0 and 1, so that nothing a pupil reads off a board
/// looks like another character.
pub const JOIN_CODE_ALPHABET: &str = "23456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Characters in a join code.
pub const JOIN_CODE_LEN: usize = 6;

/// A seat's short join code, which a pupil types to open her seat (while
/// the game is not finished): [`JOIN_CODE_LEN`] characters of
/// [`JOIN_CODE_ALPHABET`], such as `K7M2QX`.
#[derive(Clone, PartialEq, Eq)]
pub struct JoinCode(String);

impl JoinCode {
    /// A fresh code, each character drawn uniformly from the alphabet with
    /// the operating system's generator.
    #[must_use]
    pub fn fresh() -> Self {
        let alphabet = JOIN_CODE_ALPHABET.as_bytes();
        // The largest multiple of the alphabet's size a byte holds: bytes
        // above it are drawn again, so that no character is likelier.
        let fair = u8::try_from(256 - 256 % alphabet.len()).unwrap_or(u8::MAX);
        let mut code = String::with_capacity(JOIN_CODE_LEN);
        while code.len() < JOIN_CODE_LEN {
            let byte: u8 = rand::random();
            if byte < fair {
                code.push(char::from(alphabet[usize::from(byte) % alphabet.len()]));
            }
        }
        Self(code)
    }

    /// A code as a person typed it: any case, spaces and dashes ignored.
    ///
    /// # Errors
    /// [`BadJoinCode`] unless what is left is [`JOIN_CODE_LEN`] characters
    /// of [`JOIN_CODE_ALPHABET`].
    pub fn parse(typed: &str) -> Result<Self, BadJoinCode> {
        let code: String = typed
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .map(|c| c.to_ascii_uppercase())
            .collect();
        if code.chars().count() == JOIN_CODE_LEN
            && code.chars().all(|c| JOIN_CODE_ALPHABET.contains(c))
        {
            Ok(Self(code))
        } else {
            Err(BadJoinCode)
        }
    }

    /// The code, upper case.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What [`JoinCode::parse`] takes, as a regular expression (ECMA-262,
    /// as JSON Schema reads it): [`JOIN_CODE_LEN`] characters of
    /// [`JOIN_CODE_ALPHABET`] in any case, with spaces and dashes anywhere.
    #[must_use]
    pub fn pattern() -> String {
        let class: String = JOIN_CODE_ALPHABET
            .chars()
            .chain(
                JOIN_CODE_ALPHABET
                    .chars()
                    .filter(char::is_ascii_uppercase)
                    .map(|c| c.to_ascii_lowercase()),
            )
            .collect();
        format!("^[\\s-]*(?:[{class}][\\s-]*){{{JOIN_CODE_LEN}}}$")
    }
}

/// It opens a seat: kept out of logs.
impl fmt::Debug for JoinCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JoinCode(..)")
    }
}

/// A typed join code that is not one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a join code is {} characters of {} (any case; spaces and dashes are ignored)",
    JOIN_CODE_LEN,
    JOIN_CODE_ALPHABET
)]
pub struct BadJoinCode;

/// The SHA-256 hash of a [`SeatToken`]: what a seated game stores of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TokenHash([u8; 32]);

impl TokenHash {
    /// The hash a row stores; `None` unless it is 32 bytes.
    #[must_use]
    pub fn from_stored(bytes: &[u8]) -> Option<Self> {
        bytes.try_into().ok().map(Self)
    }

    /// The hash as a row stores it.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_join_code_has_no_look_alikes_and_is_read_as_typed() {
        for c in ['0', 'O', '1', 'I', 'L', 'U'] {
            assert!(!JOIN_CODE_ALPHABET.contains(c), "{c}");
        }
        assert_eq!(JOIN_CODE_ALPHABET.len(), 30);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let code = JoinCode::fresh();
            assert_eq!(code.as_str().len(), JOIN_CODE_LEN);
            assert!(
                code.as_str()
                    .chars()
                    .all(|c| JOIN_CODE_ALPHABET.contains(c))
            );
            assert_eq!(JoinCode::parse(code.as_str()), Ok(code.clone()));
            seen.insert(code.0);
        }
        assert!(seen.len() > 190, "fresh codes differ");
        let typed = JoinCode::parse(" k7m-2qx ").map(|c| c.0);
        assert_eq!(typed.as_deref(), Ok("K7M2QX"));
        let spaced = JoinCode::parse("K7M 2QX").map(|c| c.0);
        assert_eq!(spaced.as_deref(), Ok("K7M2QX"));
        for bad in [
            "", "K7M2Q", "K7M2QXZ", "K7M2Q0", "K7M2QI", "K7M2Q!", "K7M2Qé",
        ] {
            assert_eq!(JoinCode::parse(bad), Err(BadJoinCode), "{bad:?}");
        }
        assert!(!format!("{:?}", JoinCode::fresh()).contains(char::is_numeric));
    }

    #[test]
    fn an_etag_names_its_version_and_nothing_else_does() {
        for v in [0, 3, 999_999_999] {
            let version = Version::new(v);
            assert_eq!(Version::from_etag(&version.etag()), Some(version));
        }
        assert_eq!(Version::from_etag("W/\"7\""), None);
        assert_eq!(Version::from_etag("7"), Some(Version::new(7)));
        for bad in ["", "\"\"", "-1", "1000000000", "v3", "3.0"] {
            assert_eq!(Version::from_etag(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_stored_version_out_of_range_matches_no_request() {
        assert_eq!(Version::from_stored(-1), Version::new(u32::MAX));
        assert_eq!(Version::from_stored(i64::MAX), Version::new(u32::MAX));
        assert_eq!(
            Version::from_stored(Version::new(5).to_stored()),
            Version::new(5)
        );
    }

    #[test]
    fn an_idempotency_key_is_one_to_255_visible_ascii_characters() {
        let longest = "k".repeat(IdempotencyKey::MAX_CHARS);
        assert_eq!(
            IdempotencyKey::parse(&longest).map(|k| k.as_str().len()),
            Ok(IdempotencyKey::MAX_CHARS)
        );
        assert!(IdempotencyKey::parse("a-1_B.~").is_ok());
        for bad in [
            String::new(),
            "k".repeat(256),
            "a b".to_owned(),
            "é".to_owned(),
        ] {
            assert_eq!(IdempotencyKey::parse(&bad), Err(BadIdempotencyKey), "{bad}");
        }
    }

    #[test]
    fn a_seed_is_one_to_128_characters_and_a_fresh_one_is_32_hex_digits() {
        let longest = "é".repeat(Seed::MAX_CHARS);
        assert_eq!(
            Seed::parse(&longest).map(|s| s.as_str().to_owned()),
            Ok(longest)
        );
        assert_eq!(Seed::parse(""), Err(BadSeed { chars: 0 }));
        assert_eq!(
            Seed::parse(&"s".repeat(129)).map_err(|e| e.to_string()),
            Err("must be from 1 to 128 characters, got 129".to_owned())
        );
        let fresh = Seed::fresh();
        assert_eq!(fresh.as_str().len(), 32);
        assert!(fresh.as_str().bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(fresh, Seed::fresh());
    }

    #[test]
    fn a_timestamp_is_utc_with_milliseconds_and_orders_as_its_text() {
        let at = time::macros::datetime!(2026-11-30 06:40:12.3456 +01:00);
        assert_eq!(Timestamp::at(at).as_str(), "2026-11-30T05:40:12.345Z");
        let later = Timestamp::at(at + time::Duration::milliseconds(1));
        assert!(Timestamp::at(at) < later);
        assert_eq!(Timestamp::from_stored(later.as_str().to_owned()), later);
    }

    #[test]
    fn a_token_hashes_to_its_seat_and_a_fresh_one_to_no_other() {
        let token = SeatToken::fresh();
        assert_eq!(token.as_str().len(), 64);
        let sent = SeatToken::from_sent(token.as_str().to_owned());
        assert_eq!(sent.hash(), token.hash());
        assert_ne!(SeatToken::fresh().hash(), token.hash());
        assert_eq!(
            TokenHash::from_stored(token.hash().as_bytes()),
            Some(token.hash())
        );
        assert_eq!(TokenHash::from_stored(&[0; 31]), None);
        assert!(!format!("{token:?}").contains(token.as_str()));
    }
}
