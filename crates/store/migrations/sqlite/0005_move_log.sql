-- A move costs a few dozen bytes: the log keeps the throw, its score, its
-- events, the state after it and the narration's plan (the rules told,
-- each in full or briefly, and the context fact) in a small binary form
-- (src/store/codec.rs), not the rendered narration, which is rendered
-- again, word for word, when the move is read. Rows this small fit a
-- WITHOUT ROWID table keyed by (game_id, n).
--
-- The moves of `moves` (JSON records) are converted into `move_log` by the
-- program right after this migration, in the same transaction (SQL alone
-- cannot write the binary form); 0006 then drops `moves` and renames
-- `move_log` to `moves`.
CREATE TABLE move_log (
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n           INTEGER NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- The move in the log's binary form.
    body        BLOB NOT NULL,
    PRIMARY KEY (game_id, n)
) STRICT, WITHOUT ROWID;

-- JSON: the rules stated so far in the game and when (each rule's last
-- move and last move in full), after its last move: what the next move's
-- narration starts from. Moves no longer keep it.
ALTER TABLE games ADD COLUMN rules_stated TEXT NOT NULL DEFAULT '{}';
