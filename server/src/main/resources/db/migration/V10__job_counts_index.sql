-- /metrics counts the job queue by kind and status (issue 28): on this index, not a scan of the table.
CREATE INDEX jobs_kind_status_idx ON jobs (kind, status);
