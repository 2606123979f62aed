-- Jobs are the client-visible side of background work (analysis now, execution next);
-- db-scheduler's scheduled_tasks row is how a worker picks one up.
CREATE TABLE jobs (
    id          TEXT PRIMARY KEY,
    owner       TEXT NOT NULL,
    kind        TEXT NOT NULL,
    subject_id  TEXT NOT NULL,
    status      TEXT NOT NULL,
    progress    DOUBLE PRECISION NOT NULL,
    message     TEXT NOT NULL,
    error_code  TEXT,
    error_field TEXT,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX jobs_owner_idx ON jobs (owner);

CREATE TABLE analyses (
    id          TEXT PRIMARY KEY,
    owner       TEXT NOT NULL,
    video_id    TEXT NOT NULL REFERENCES videos (id) ON DELETE CASCADE,
    job_id      TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    result_key  TEXT,
    created_at  BIGINT NOT NULL
);
CREATE INDEX analyses_video_idx ON analyses (video_id);
