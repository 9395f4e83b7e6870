-- The answers kept under idempotency keys are sealed under the server's
-- secret key, which is kept in a file outside the database
-- (XChaCha20-Poly1305): `answer` is the sealed body, `nonce` its nonce. A
-- row whose `nonce` is NULL holds an answer kept in clear by a version
-- before; the first start with the key seals it (store::keys), so a copy
-- of the database holds no token. The body's column is renamed so that a
-- server of a version before, still running, fails rather than replay a
-- sealed body as its answer.
ALTER TABLE idempotency_keys RENAME COLUMN body TO answer;
ALTER TABLE idempotency_keys ADD COLUMN nonce BLOB;
ALTER TABLE create_keys RENAME COLUMN body TO answer;
ALTER TABLE create_keys ADD COLUMN nonce BLOB;
