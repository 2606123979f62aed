-- One video has one current analysis (issue 15, races). Two requests racing to analyse the same
-- video could each find none and each start one; with this index the second insert does nothing,
-- whichever connection or node tries. A failed analysis started again is superseded (superseded_at
-- set) by its retry in the same transaction, and stays on record.
ALTER TABLE analyses ADD COLUMN superseded_at BIGINT;
-- Duplicates the race already made: all but the newest analysis of each video step aside.
UPDATE analyses SET superseded_at = created_at
WHERE EXISTS (SELECT 1 FROM analyses newer
              WHERE newer.owner = analyses.owner AND newer.video_id = analyses.video_id
                AND (newer.created_at > analyses.created_at
                     OR (newer.created_at = analyses.created_at AND newer.id > analyses.id)));
CREATE UNIQUE INDEX analyses_one_current_idx ON analyses (owner, video_id) WHERE superseded_at IS NULL;
