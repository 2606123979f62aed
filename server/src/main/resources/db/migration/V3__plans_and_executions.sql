-- A plan is generated from one analysis of one video; an execution runs one plan (as stored, or
-- as the client edited it) as a job. Both keep their JSON as blobs, keyed here.
CREATE TABLE plans (
    id            TEXT PRIMARY KEY,
    owner         TEXT NOT NULL,
    video_id      TEXT NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
    analysis_key  TEXT NOT NULL,
    plan_key      TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE INDEX plans_owner_idx ON plans (owner);

CREATE TABLE executions (
    id            TEXT PRIMARY KEY,
    owner         TEXT NOT NULL,
    job_id        TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    video_id      TEXT NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
    plan_key      TEXT NOT NULL,
    analysis_key  TEXT NOT NULL,
    outputs       TEXT,
    failure_key   TEXT,
    created_at    BIGINT NOT NULL
);
CREATE INDEX executions_owner_idx ON executions (owner);
CREATE INDEX executions_job_idx ON executions (job_id);
