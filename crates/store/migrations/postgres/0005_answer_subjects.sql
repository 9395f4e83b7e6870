-- An answer kept under an idempotency key names what it is about in the
-- domain's terms, `subject`: `game ID VERSION`, `move ID VERSION N` or
-- `class ID` (`zohn_ahl_domain::Subject`); each surface builds its own
-- headers and links from it. Answers kept before this named it by their
-- HTTP `Location` and `ETag`, and their sealing binds those two strings:
-- the columns stay, renamed `bound_*`, for such answers alone (empty for
-- every answer kept since), which expire within 24 hours.
ALTER TABLE idempotency_keys RENAME COLUMN location TO bound_location;
ALTER TABLE idempotency_keys RENAME COLUMN etag TO bound_etag;
ALTER TABLE idempotency_keys ADD COLUMN subject TEXT NOT NULL DEFAULT '';
UPDATE idempotency_keys SET subject = CASE
    WHEN position('/moves/' IN bound_location) > 0 THEN
        'move ' || game_id || ' ' || replace(bound_etag, '"', '') || ' '
            || substr(bound_location, position('/moves/' IN bound_location) + 7)
    ELSE 'game ' || game_id || ' ' || replace(bound_etag, '"', '')
END;

ALTER TABLE create_keys RENAME COLUMN location TO bound_location;
ALTER TABLE create_keys RENAME COLUMN etag TO bound_etag;
ALTER TABLE create_keys ADD COLUMN subject TEXT NOT NULL DEFAULT '';
UPDATE create_keys SET subject = CASE
    WHEN bound_location LIKE '/v1/classes/%' THEN 'class ' || substr(bound_location, 13)
    ELSE 'game ' || game_id || ' ' || replace(bound_etag, '"', '')
END;
