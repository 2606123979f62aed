-- Revoking a key ends what it holds (issue 28): the key each live stream was made with, so that
-- revoking the key ends the stream and its session token at once, on every node.
ALTER TABLE live_streams ADD COLUMN key_id TEXT;
CREATE INDEX live_streams_key_idx ON live_streams (key_id) WHERE ended_at IS NULL;
-- A rotated link secret: the previous one (row '<name>.previous') still verifies links until valid_until.
ALTER TABLE shared_secrets ADD COLUMN valid_until BIGINT;
