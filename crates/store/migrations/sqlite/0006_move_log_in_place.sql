-- Every move is in `move_log` now (converted after 0005): the JSON records
-- go, and the log takes their table's name.
DROP TABLE moves;
ALTER TABLE move_log RENAME TO moves;
