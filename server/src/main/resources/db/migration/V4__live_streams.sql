-- Live streams and the node that plays each one. A stream's audio and controls live in the memory
-- of one server process; this table is how every other process sharing the database finds it (to
-- forward a player call there) and how the one-active-stream-per-user rule holds across processes.
-- node_url is the owning node's internal base URL (SCORECAST_NODE_URL); ended_at is null while the
-- stream is active; last_active_at is the owner's last recorded activity (control call or listener).
CREATE TABLE live_streams (
    id             TEXT PRIMARY KEY,
    owner          TEXT NOT NULL,
    token_hash     TEXT NOT NULL UNIQUE,
    node_url       TEXT NOT NULL,
    created_at     BIGINT NOT NULL,
    last_active_at BIGINT NOT NULL,
    ended_at       BIGINT,
    end_reason     TEXT
);
-- The rule itself: a second active row for the same user cannot be inserted, whichever node tries.
CREATE UNIQUE INDEX live_streams_one_active_idx ON live_streams (owner) WHERE ended_at IS NULL;
CREATE INDEX live_streams_node_idx ON live_streams (node_url, ended_at);
CREATE INDEX live_streams_ended_idx ON live_streams (ended_at);
