-- Seats: a secret token per side, stored only as its SHA-256 hash.
ALTER TABLE games ADD COLUMN seated INTEGER NOT NULL DEFAULT 0;

CREATE TABLE seats (
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    side        TEXT NOT NULL,
    token_hash  BLOB NOT NULL,
    PRIMARY KEY (game_id, side)
) STRICT, WITHOUT ROWID;

CREATE UNIQUE INDEX seats_by_token ON seats (token_hash);

-- Idempotency keys of throws: the first answer, replayed byte for byte to
-- a retry with the same key and request; kept for 24 hours.
CREATE TABLE idempotency_keys (
    game_id       TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key           TEXT NOT NULL,
    request_hash  BLOB NOT NULL,
    location      TEXT NOT NULL,
    etag          TEXT NOT NULL,
    body          BLOB NOT NULL,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (game_id, key)
) STRICT, WITHOUT ROWID;
