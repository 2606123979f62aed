package dev.scorecast.server.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Small helpers over JDBC so repositories read as SQL plus a row mapper. */
public final class Rows {
    private Rows() {}

    @FunctionalInterface
    public interface Mapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    public static int update(Connection connection, String sql, Object... params) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, params)) {
            return statement.executeUpdate();
        }
    }

    public static <T> List<T> list(Connection connection, String sql, Mapper<T> mapper, Object... params)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, params);
                ResultSet rows = statement.executeQuery()) {
            var result = new ArrayList<T>();
            while (rows.next()) {
                result.add(mapper.map(rows));
            }
            return result;
        }
    }

    public static <T> Optional<T> one(Connection connection, String sql, Mapper<T> mapper, Object... params)
            throws SQLException {
        List<T> found = list(connection, sql, mapper, params);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.getFirst());
    }

    /** A nullable column read as a boxed value. */
    public static Long nullableLong(ResultSet row, String column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? null : value;
    }

    public static Integer nullableInt(ResultSet row, String column) throws SQLException {
        int value = row.getInt(column);
        return row.wasNull() ? null : value;
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... params) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < params.length; i++) {
            Object param = params[i];
            switch (param) {
                case null -> statement.setNull(i + 1, Types.NULL);
                case Boolean flag -> statement.setInt(i + 1, flag ? 1 : 0);
                default -> statement.setObject(i + 1, param);
            }
        }
        return statement;
    }
}
