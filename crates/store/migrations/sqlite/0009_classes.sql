-- Classes: a teacher's group of seated games under one host token, stored
-- like the seats' tokens, only as its SHA-256 hash. A game belongs to at
-- most one class (`games.class_id`, NULL for a game made alone). Deleting
-- a game takes it out of its class; deleting a class (no operation does
-- yet) leaves its games, which keep their own tokens, outside any class.
CREATE TABLE classes (
    id          TEXT PRIMARY KEY NOT NULL,
    name        TEXT NOT NULL,
    host_hash   BLOB NOT NULL UNIQUE,
    created_at  TEXT NOT NULL
) STRICT;

ALTER TABLE games ADD COLUMN class_id TEXT REFERENCES classes (id) ON DELETE SET NULL;

-- A class's games, oldest first.
CREATE INDEX games_by_class ON games (class_id, created_at) WHERE class_id IS NOT NULL;
