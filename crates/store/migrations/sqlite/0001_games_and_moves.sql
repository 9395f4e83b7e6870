-- Games and their moves. Moves are the source of truth: a game's `state`
-- always equals the replay of its moves from the setup.
CREATE TABLE games (
    id          TEXT PRIMARY KEY NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- JSON: preset, resolved options, sides (names, players), first side, audience.
    setup       TEXT NOT NULL,
    -- The seed string of the game's throw generator.
    seed        TEXT NOT NULL,
    -- 1 when the creator chose the seed.
    seeded      INTEGER NOT NULL,
    -- JSON: the rules engine's GameState after the last move.
    state       TEXT NOT NULL,
    -- Number of moves stored; the compare-and-set version.
    version     INTEGER NOT NULL DEFAULT 0,
    -- 'in_progress' or 'finished'.
    status      TEXT NOT NULL DEFAULT 'in_progress',
    -- JSON array: ids of the context facts told so far, oldest first.
    told_facts  TEXT NOT NULL DEFAULT '[]'
) STRICT;

CREATE TABLE moves (
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n           INTEGER NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    -- JSON: the whole move record (throw, score, events, narration, state after).
    body        TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
) STRICT, WITHOUT ROWID;
