-- Classes: the same as SQLite's migration 0009 (see migrations/sqlite/).
-- A class's host token is stored only as its SHA-256 hash; a game belongs
-- to at most one class. Deleting a game takes it out of its class;
-- deleting a class leaves its games outside any class.
CREATE TABLE classes (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    host_hash   BYTEA NOT NULL UNIQUE,
    created_at  TEXT NOT NULL
);

ALTER TABLE games ADD COLUMN class_id TEXT REFERENCES classes (id) ON DELETE SET NULL;

CREATE INDEX games_by_class ON games (class_id, created_at) WHERE class_id IS NOT NULL;
