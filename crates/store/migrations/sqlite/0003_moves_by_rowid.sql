-- Moves in a rowid table: a move record is about 2 KB of JSON, too large
-- for a WITHOUT ROWID table (whose rows live in the key's b-tree and spill
-- into overflow pages). New moves now go to the end of the table, and a
-- small unique index on (game_id, n) finds them.
CREATE TABLE moves_by_rowid (
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n           INTEGER NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- JSON: the whole move record (throw, score, events, narration, state after).
    body        TEXT NOT NULL,
    UNIQUE (game_id, n)
) STRICT;

INSERT INTO moves_by_rowid (game_id, n, created_at, body)
    SELECT game_id, n, created_at, body FROM moves ORDER BY game_id, n;

DROP TABLE moves;

ALTER TABLE moves_by_rowid RENAME TO moves;
