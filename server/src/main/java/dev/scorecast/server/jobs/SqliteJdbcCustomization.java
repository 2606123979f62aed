package dev.scorecast.server.jobs;

import com.github.kagkarlsson.scheduler.jdbc.DefaultJdbcCustomization;

/**
 * db-scheduler's generic SQL limits rows with {@code OFFSET 0 ROWS FETCH FIRST n ROWS ONLY},
 * which SQLite does not parse; SQLite spells it {@code LIMIT n}. Timestamps are stored in UTC.
 */
final class SqliteJdbcCustomization extends DefaultJdbcCustomization {
    SqliteJdbcCustomization() {
        super(true);
    }

    @Override
    public String getName() {
        return "SQLite";
    }

    @Override
    public String getQueryLimitPart(int limit) {
        return " LIMIT " + limit;
    }
}
