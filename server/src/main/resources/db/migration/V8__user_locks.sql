-- One row per user, written by every transaction that counts a user's work against a quota before
-- adding to it (issue 15, races). Writing the row holds it until the transaction ends, so those
-- transactions of one user run one after another: on PostgreSQL (READ COMMITTED) two of them counting
-- at once would each miss the other's insert, and both pass a quota with one place left.
CREATE TABLE user_locks (
    owner      TEXT PRIMARY KEY,
    locked_at  BIGINT NOT NULL
);
