package io.outboxrelay.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Direct reads of the real PostgreSQL the server uses, to check what was committed. */
public final class Database {

    public static final String URL = System.getProperty("it.db.url", "jdbc:postgresql://127.0.0.1:55432/outbox");
    public static final String USER = "outbox";
    public static final String PASSWORD = "outbox";

    private Database() {
    }

    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(URL, USER, PASSWORD);
    }

    /** Every row of a query, column name to value. */
    public static List<Map<String, Object>> rows(String sql, Object... parameters) {
        try (Connection connection = connect();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet result = statement.executeQuery()) {
                List<Map<String, Object>> rows = new ArrayList<>();
                while (result.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int column = 1; column <= result.getMetaData().getColumnCount(); column++) {
                        row.put(result.getMetaData().getColumnLabel(column), result.getObject(column));
                    }
                    rows.add(row);
                }
                return rows;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public static long count(String sql, Object... parameters) {
        return ((Number) rows(sql, parameters).get(0).values().iterator().next()).longValue();
    }

    public static int update(String sql, Object... parameters) {
        try (Connection connection = connect();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
