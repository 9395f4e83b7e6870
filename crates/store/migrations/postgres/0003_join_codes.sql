-- A side's seat has a short join code a pupil types to open it while the
-- game is not finished (`POST /v1/join`). Since a token is stored only as
-- its hash, the seat's row keeps the token sealed under the server's
-- secret key (XChaCha20-Poly1305, as the answers kept under idempotency
-- keys): `sealed_token`, under `token_nonce`. A seat of a game created
-- before has none (NULL): it has no code.
ALTER TABLE seats ADD COLUMN join_code TEXT;
ALTER TABLE seats ADD COLUMN sealed_token BYTEA;
ALTER TABLE seats ADD COLUMN token_nonce BYTEA;

CREATE UNIQUE INDEX seats_by_join_code ON seats (join_code);
