-- The PostgreSQL store: the same tables as SQLite's after its migrations
-- 0001-0006 (see migrations/sqlite/), in PostgreSQL's types. Times are
-- text in the same RFC 3339 form (`2026-11-30T05:40:12.345Z`), so that
-- both stores compare and return them alike; flags and counts are BIGINT.

-- Games. Moves are the source of truth: a game's `state` always equals the
-- replay of its moves from the setup.
CREATE TABLE games (
    id                   TEXT PRIMARY KEY,
    created_at           TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    updated_at           TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    -- JSON: preset, resolved options, sides (names, players), first side, audience.
    setup                TEXT NOT NULL,
    seed                 TEXT NOT NULL,
    seeded               BIGINT NOT NULL,
    seated               BIGINT NOT NULL DEFAULT 0,
    sides_report_throws  BIGINT NOT NULL DEFAULT 0,
    -- JSON: the rules engine's GameState after the last move.
    state                TEXT NOT NULL,
    -- Moves (and a stop) stored so far; the compare-and-set version.
    version              BIGINT NOT NULL DEFAULT 0,
    status               TEXT NOT NULL DEFAULT 'in_progress',
    -- JSON array: ids of the context facts told lately, oldest first.
    told_facts           TEXT NOT NULL DEFAULT '[]',
    -- JSON: the rules stated so far and when, after the last move.
    rules_stated         TEXT NOT NULL DEFAULT '{}'
);

CREATE INDEX games_by_update ON games (updated_at);

-- The move log: each move in the log's binary form (src/store/codec.rs).
CREATE TABLE moves (
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n           BIGINT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    body        BYTEA NOT NULL,
    PRIMARY KEY (game_id, n)
);

-- Seats: a secret token per side and the host's, stored only as its
-- SHA-256 hash ('host' is the host's row).
CREATE TABLE seats (
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    side        TEXT NOT NULL,
    token_hash  BYTEA NOT NULL UNIQUE,
    PRIMARY KEY (game_id, side)
);

-- Idempotency keys of throws and stops: the first answer, replayed byte
-- for byte to a retry with the same key and request for 24 hours.
CREATE TABLE idempotency_keys (
    game_id       TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key           TEXT NOT NULL,
    request_hash  BYTEA NOT NULL,
    location      TEXT NOT NULL,
    etag          TEXT NOT NULL,
    body          BYTEA NOT NULL,
    created_at    TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    PRIMARY KEY (game_id, key)
);

CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);

-- Idempotency keys of game creation (the answer holds the tokens).
CREATE TABLE create_keys (
    key           TEXT NOT NULL UNIQUE,
    request_hash  BYTEA NOT NULL,
    game_id       TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    location      TEXT NOT NULL,
    etag          TEXT NOT NULL,
    body          BYTEA NOT NULL,
    created_at    TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
);

CREATE INDEX create_keys_by_game ON create_keys (game_id);
CREATE INDEX create_keys_by_age ON create_keys (created_at);
