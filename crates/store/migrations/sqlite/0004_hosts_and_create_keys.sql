-- Roles. A seated game's host token (the teacher's, the app's) is stored
-- like the side tokens, only as its SHA-256 hash: a row of `seats` whose
-- side is 'host'. A seated game created before hosts existed has no such
-- row; for it, either side's token keeps the powers it had (stopping).
--
-- `sides_report_throws`: 1 when a side's own token may report a physical
-- throw for it; 0 when only the host's token may. Seated games created
-- before hosts existed keep reporting their own throws, as they could then.
ALTER TABLE games ADD COLUMN sides_report_throws INTEGER NOT NULL DEFAULT 0;
UPDATE games SET sides_report_throws = 1 WHERE seated = 1;

-- Idempotency keys of game creation: the first answer, tokens included,
-- replayed byte for byte to a retry with the same key and body for 24
-- hours, then deleted (expired rows are purged every few minutes). A rowid
-- table: an answer is a few KB, too large for a WITHOUT ROWID table.
CREATE TABLE create_keys (
    key           TEXT NOT NULL UNIQUE,
    request_hash  BLOB NOT NULL,
    game_id       TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    location      TEXT NOT NULL,
    etag          TEXT NOT NULL,
    body          BLOB NOT NULL,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

-- Deleting a game deletes its creation key with it; purges find expired keys.
CREATE INDEX create_keys_by_game ON create_keys (game_id);
CREATE INDEX create_keys_by_age ON create_keys (created_at);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
