-- The periodic sweeps run on a thread of their own (issue 28, upkeep under backlog): one row each,
-- claimed by the node that moves its due time on. They were db-scheduler recurring tasks, which
-- starved behind a backlog of jobs; their old rows go.
CREATE TABLE upkeep (
    name    TEXT PRIMARY KEY,
    due_at  BIGINT NOT NULL,
    holder  TEXT,
    ran_at  BIGINT
);
DELETE FROM scheduled_tasks WHERE task_name IN ('expire-uploads', 'retention', 'sweep-orphans', 'forget-ended-streams',
                                                   'forget-webhook-deliveries');
-- What the sweeps look up, by index rather than a scan per file or per row.
CREATE INDEX plans_plan_key_idx ON plans (plan_key);
CREATE INDEX plans_analysis_key_idx ON plans (analysis_key);
CREATE INDEX executions_analysis_key_idx ON executions (analysis_key);
CREATE INDEX executions_video_idx ON executions (video_id);
CREATE INDEX uploads_video_idx ON uploads (video_id);
CREATE INDEX jobs_status_updated_idx ON jobs (status, updated_at);
CREATE INDEX videos_created_idx ON videos (created_at);
