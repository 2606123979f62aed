-- The stage a job is in (an execution's compose, render, ...; an analysis's analyse), for progress events.
ALTER TABLE jobs ADD COLUMN stage TEXT;

-- A user's webhook endpoints. events is the subscribed types between commas (",upload.completed,execution.finished,"),
-- so one LIKE finds the endpoints of a type. The secret signs every delivery; it is shown to the user once.
CREATE TABLE webhooks (
    id          TEXT PRIMARY KEY,
    owner       TEXT NOT NULL,
    url         TEXT NOT NULL,
    events      TEXT NOT NULL,
    secret      TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX webhooks_owner_idx ON webhooks (owner);

-- What happened, written in the same transaction as the change it reports (a job ending, an upload completing), so a
-- crash loses neither. object_id is what it is about (a job, an upload, a stream); snapshot its state at that moment;
-- body the JSON delivered, fixed at the first attempt so that every attempt and redelivery sends the same bytes.
CREATE TABLE webhook_events (
    id          TEXT PRIMARY KEY,
    owner       TEXT NOT NULL,
    type        TEXT NOT NULL,
    object_id   TEXT NOT NULL,
    snapshot    TEXT NOT NULL,
    body        TEXT,
    created_at  BIGINT NOT NULL
);
CREATE INDEX webhook_events_created_idx ON webhook_events (created_at);

-- One event to one endpoint: the durable queue. seq orders an endpoint's deliveries about one object; a delivery waits
-- while an earlier one about the same object is pending. claimed_by/claimed_until lease it to the node sending it.
CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    webhook_id      TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id        TEXT NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    owner           TEXT NOT NULL,
    object_id       TEXT NOT NULL,
    seq             BIGINT NOT NULL,
    state           TEXT NOT NULL,
    attempts        INTEGER NOT NULL,
    next_attempt_at BIGINT NOT NULL,
    give_up_at      BIGINT NOT NULL,
    claimed_by      TEXT,
    claimed_until   BIGINT,
    created_at      BIGINT NOT NULL,
    ended_at        BIGINT
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (state, next_attempt_at);
CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (webhook_id, object_id, seq);
CREATE INDEX webhook_deliveries_listing_idx ON webhook_deliveries (webhook_id, created_at);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

-- Every attempt of a delivery: when, how long, the status code or the error, the start of the answer.
CREATE TABLE webhook_attempts (
    delivery_id  TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt      INTEGER NOT NULL,
    started_at   BIGINT NOT NULL,
    duration_ms  BIGINT NOT NULL,
    status_code  INTEGER,
    error        TEXT,
    response     TEXT,
    PRIMARY KEY (delivery_id, attempt)
);
