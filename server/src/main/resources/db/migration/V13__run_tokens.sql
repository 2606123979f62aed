-- The run of a job that may write to it (issue 28, duplicate runs): a run writes a new token when it
-- starts and every update of the run requires it, so a run another worker started since (after a
-- database outage longer than the heartbeat window, a clock ahead, a long pause) can no longer write
-- progress, end the job, or publish outputs over the newer run's.
ALTER TABLE jobs ADD COLUMN run_token TEXT;
