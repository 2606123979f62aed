-- The API key each execution was started with (issue 28): the links its job writes into results.json
-- and the links in its webhook payloads carry it (no request makes those), so revoking the key ends
-- them too. Null for executions started before, whose links carry no key (a rotation ends them).
ALTER TABLE executions ADD COLUMN key_id TEXT;
