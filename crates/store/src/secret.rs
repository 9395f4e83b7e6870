//! The server's secret key, kept outside the database: it seals the
//! answers kept under idempotency keys (a creation's holds the game's seat
//! and host tokens) and each side's token kept for its join code
//! (`seats`), so that a copy of the database, a backup included, gives no
//! token away.
//!
//! The key is 32 random bytes in a file of their own, owner-only (mode
//! 0600). [`SecretKey::load_or_create`] reads it, or makes it when it is
//! missing: the new key is written to a temporary file in the same
//! directory, synced, then given its name without replacing anything, so
//! several processes started together on a fresh setup end up with the
//! one key that was named first (the others read it). A file that is not
//! 32 bytes, or that its group or others may read or write, is refused.
//!
//! Each answer is sealed with XChaCha20-Poly1305 under a random 24-byte
//! nonce kept beside it; the associated data bind it to its table, game,
//! key and the columns kept in clear beside it (see `keys`).

use std::fmt;
use std::io::{Read as _, Write as _};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chacha20poly1305::aead::{Aead, Generate, Key, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};

/// Bytes in a key file.
pub const KEY_BYTES: usize = 32;

/// The key file of a PostgreSQL store when none is given: in the working
/// directory.
pub const POSTGRES_KEY_FILE: &str = "zohn-ahl.key";

/// A key file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SecretKeyError {
    /// The file could not be read.
    #[error("cannot read the secret key file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file was missing and could not be made.
    #[error("cannot make the secret key file {}: {source}", path.display())]
    Create {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a regular file.
    #[error("the secret key file {} is not a regular file", path.display())]
    NotAFile {
        /// The file.
        path: PathBuf,
    },
    /// The file is not one key.
    #[error(
        "the secret key file {} holds {len} bytes, not {KEY_BYTES}: it is not a key this server made; give the right file, or move it away to have a new key made at the next start (the answers kept under idempotency keys until then can no longer be replayed)",
        path.display()
    )]
    WrongLength {
        /// The file.
        path: PathBuf,
        /// Its length.
        len: u64,
    },
    /// The file's group or others may read or write it.
    #[error(
        "the secret key file {} may be read or written by its group or others (mode {mode:03o}); make it owner-only: chmod 600 {}",
        path.display(),
        path.display()
    )]
    TooOpen {
        /// The file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
}

/// The server's secret key (the cipher it keys; the bytes are not kept).
#[derive(Clone)]
pub struct SecretKey(Arc<XChaCha20Poly1305>);

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretKey(..)")
    }
}

impl SecretKey {
    /// The key in the file at `path`, made first if the file is missing
    /// (32 random bytes from the operating system, mode 0600). Several
    /// processes calling this together on a missing file all get the key
    /// of the one that named its file first.
    ///
    /// # Errors
    /// [`SecretKeyError`]: the file cannot be read or made, is not a
    /// regular file, is not 32 bytes, or its group or others may read or
    /// write it.
    pub fn load_or_create(path: &Path) -> Result<Self, SecretKeyError> {
        match read(path) {
            Err(SecretKeyError::Read { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound => {}
            other => return other,
        }
        if create(path).map_err(|source| SecretKeyError::Create {
            path: path.to_owned(),
            source,
        })? {
            tracing::info!(
                file = %path.display(),
                "made a new secret key file (owner-only): back it up apart from the database"
            );
        }
        read(path)
    }

    /// A key of random bytes held only in memory (for a test, or a
    /// program whose kept answers need not outlive it).
    #[must_use]
    ///
    /// # Panics
    /// When the operating system gives no random bytes.
    pub fn ephemeral() -> Self {
        let key = Key::<XChaCha20Poly1305>::generate();
        Self(Arc::new(XChaCha20Poly1305::new(&key)))
    }

    /// `body` sealed, bound to `associated`: (nonce, sealed body).
    /// `None` when the operating system gives no random bytes.
    pub(super) fn seal(&self, associated: &[u8], body: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
        let nonce = XNonce::try_generate().ok()?;
        let sealed = self
            .0
            .encrypt(
                &nonce,
                Payload {
                    msg: body,
                    aad: associated,
                },
            )
            .ok()?;
        Some((nonce.to_vec(), sealed))
    }

    /// The body sealed by [`SecretKey::seal`] under this key with these
    /// associated data, or `None` (another key, or altered bytes).
    pub(super) fn open(&self, associated: &[u8], nonce: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
        let nonce = XNonce::try_from(nonce).ok()?;
        self.0
            .decrypt(
                &nonce,
                Payload {
                    msg: sealed,
                    aad: associated,
                },
            )
            .ok()
    }
}

/// The key in the file at `path`, checked: a regular file, owner-only,
/// of [`KEY_BYTES`] bytes.
fn read(path: &Path) -> Result<SecretKey, SecretKeyError> {
    let failed = |source| SecretKeyError::Read {
        path: path.to_owned(),
        source,
    };
    let mut file = std::fs::File::open(path).map_err(failed)?;
    let meta = file.metadata().map_err(failed)?;
    if !meta.is_file() {
        return Err(SecretKeyError::NotAFile {
            path: path.to_owned(),
        });
    }
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(SecretKeyError::TooOpen {
            path: path.to_owned(),
            mode,
        });
    }
    if meta.len() != KEY_BYTES as u64 {
        return Err(SecretKeyError::WrongLength {
            path: path.to_owned(),
            len: meta.len(),
        });
    }
    let mut bytes = [0u8; KEY_BYTES];
    file.read_exact(&mut bytes).map_err(failed)?;
    let key = Key::<XChaCha20Poly1305>::from(bytes);
    bytes.fill(0);
    Ok(SecretKey(Arc::new(XChaCha20Poly1305::new(&key))))
}

/// Make the key file at `path` unless one is there: written whole under a
/// temporary name in its directory, synced, then named without replacing
/// (Linux's `RENAME_NOREPLACE`, or a hard link), and the directory synced.
/// `false` when another process named its file first.
fn create(path: &Path) -> std::io::Result<bool> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut key = Key::<XChaCha20Poly1305>::try_generate().map_err(std::io::Error::other)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".zohn-ahl-key-")
        .permissions(std::fs::Permissions::from_mode(0o600))
        .tempfile_in(dir)?;
    let written = tmp.write_all(&key).and_then(|()| tmp.as_file().sync_all());
    key.fill(0);
    written?;
    match tmp.persist_noclobber(path) {
        Ok(_) => {
            std::fs::File::open(dir)?.sync_all()?;
            Ok(true)
        }
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e.error),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_sealed_body_opens_only_with_its_key_and_associated_data() {
        let key = SecretKey::ephemeral();
        let (nonce, sealed) = key.seal(b"game 1", b"{\"host_token\":\"x\"}").unwrap();
        assert_eq!(nonce.len(), 24, "XChaCha20's nonce");
        assert_eq!(
            key.open(b"game 1", &nonce, &sealed).unwrap(),
            b"{\"host_token\":\"x\"}"
        );
        assert!(key.open(b"game 2", &nonce, &sealed).is_none());
        assert!(
            SecretKey::ephemeral()
                .open(b"game 1", &nonce, &sealed)
                .is_none()
        );
        assert!(key.open(b"game 1", &nonce[1..], &sealed).is_none());
        let (other_nonce, _) = key.seal(b"game 1", b"{}").unwrap();
        assert_ne!(nonce, other_nonce, "a fresh nonce for every answer");
    }

    #[test]
    fn a_missing_key_file_is_made_owner_only_and_read_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("zohn-ahl.db.key");
        let made = SecretKey::load_or_create(&path).unwrap();
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
        assert_eq!(meta.len(), KEY_BYTES as u64);
        let (nonce, sealed) = made.seal(b"", b"kept").unwrap();
        let again = SecretKey::load_or_create(&path).unwrap();
        assert_eq!(again.open(b"", &nonce, &sealed).unwrap(), b"kept");
        // Nothing but the key file is left in the directory.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
