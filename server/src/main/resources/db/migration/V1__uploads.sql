-- Portable between SQLite and PostgreSQL: times are epoch milliseconds, flags are 0/1 integers.

CREATE TABLE api_keys (
    key_id      TEXT PRIMARY KEY,
    owner       TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    revoked_at  BIGINT
);

CREATE TABLE uploads (
    id           TEXT PRIMARY KEY,
    owner        TEXT NOT NULL,
    variant      TEXT NOT NULL,
    file_name    TEXT NOT NULL,
    file_size    BIGINT,
    media_type   TEXT,
    total_chunks INTEGER,
    state        TEXT NOT NULL,
    video_id     TEXT,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL
);
CREATE INDEX uploads_owner_idx ON uploads (owner);
CREATE INDEX uploads_expiry_idx ON uploads (state, expires_at);

CREATE TABLE upload_chunks (
    upload_id   TEXT NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    chunk_id    TEXT NOT NULL,
    size        BIGINT NOT NULL,
    crc32c      TEXT NOT NULL,
    sha256      TEXT,
    total       INTEGER,
    stored_as   TEXT NOT NULL,
    received_at BIGINT NOT NULL,
    PRIMARY KEY (upload_id, idx)
);

CREATE TABLE videos (
    id            TEXT PRIMARY KEY,
    owner         TEXT NOT NULL,
    upload_id     TEXT NOT NULL REFERENCES uploads (id) ON DELETE CASCADE,
    file_name     TEXT NOT NULL,
    stored_as     TEXT NOT NULL,
    size          BIGINT NOT NULL,
    crc32c        TEXT NOT NULL,
    container     TEXT NOT NULL,
    video_codec   TEXT NOT NULL,
    duration      DOUBLE PRECISION NOT NULL,
    width         INTEGER NOT NULL,
    height        INTEGER NOT NULL,
    fps           DOUBLE PRECISION NOT NULL,
    frames        BIGINT NOT NULL,
    rotation      INTEGER NOT NULL,
    has_audio     INTEGER NOT NULL,
    audio_codec   TEXT,
    audio_stored_as TEXT,
    created_at    BIGINT NOT NULL
);
CREATE INDEX videos_owner_idx ON videos (owner);

-- db-scheduler's own table (the library expects it to exist).
CREATE TABLE scheduled_tasks (
    task_name            TEXT NOT NULL,
    task_instance        TEXT NOT NULL,
    task_data            BYTEA,
    execution_time       TIMESTAMP WITH TIME ZONE NOT NULL,
    picked               BOOLEAN NOT NULL,
    picked_by            TEXT,
    last_success         TIMESTAMP WITH TIME ZONE,
    last_failure         TIMESTAMP WITH TIME ZONE,
    consecutive_failures INTEGER,
    last_heartbeat       TIMESTAMP WITH TIME ZONE,
    version              BIGINT NOT NULL,
    priority             SMALLINT,
    PRIMARY KEY (task_name, task_instance)
);
CREATE INDEX scheduled_tasks_execution_time_idx ON scheduled_tasks (execution_time);
CREATE INDEX scheduled_tasks_last_heartbeat_idx ON scheduled_tasks (last_heartbeat);
CREATE INDEX scheduled_tasks_priority_idx ON scheduled_tasks (priority DESC, execution_time ASC);
