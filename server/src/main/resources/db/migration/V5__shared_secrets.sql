-- Secrets every node must share (the download-link key): kept in the database, never in one
-- node's data directory, so a link signed on one node verifies on every other.
CREATE TABLE shared_secrets (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- Which node is assembling an upload: its start-up recovery puts back only its own, and an
-- assembly left by a node that never came back is put back once it is older than any assembly takes.
ALTER TABLE uploads ADD COLUMN assembling_node TEXT;
