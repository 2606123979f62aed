-- Every byte stored for a user besides a video's source and an upload's chunks (which their own rows
-- count): plans, the analyses clients send with them, the server's analyses, a video's extracted audio
-- and thumbnails, an execution's plan, outputs and failure report (issue 28). One row per blob,
-- written before or with the blob; its quota check and its insert run in one transaction under the
-- owner's user_locks row. A row goes with the video or execution it belongs to (ON DELETE CASCADE),
-- so retention, which deletes those rows, frees the share too.
CREATE TABLE stored_bytes (
    blob_key     TEXT PRIMARY KEY,
    owner        TEXT NOT NULL,
    video_id     TEXT REFERENCES videos (id) ON DELETE CASCADE,
    execution_id TEXT REFERENCES executions (id) ON DELETE CASCADE,
    bytes        BIGINT NOT NULL,
    created_at   BIGINT NOT NULL
);
CREATE INDEX stored_bytes_owner_idx ON stored_bytes (owner);
CREATE INDEX stored_bytes_video_idx ON stored_bytes (video_id);
CREATE INDEX stored_bytes_execution_idx ON stored_bytes (execution_id);
-- A video keeps its newest plans (SCORECAST_QUOTA_PLANS_PER_VIDEO); they are counted and trimmed by video.
CREATE INDEX plans_video_idx ON plans (video_id, created_at);
-- Superseded analyses are removed sooner than finished work (SCORECAST_RETENTION_FAILED_HOURS).
CREATE INDEX analyses_superseded_idx ON analyses (superseded_at);
