-- How many times a worker has started each job: a job whose runs keep being cut off (its node
-- crashing or stopping under it) is ended after a few starts instead of being retried forever.
ALTER TABLE jobs ADD COLUMN starts INTEGER NOT NULL DEFAULT 0;
