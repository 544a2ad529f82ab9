package io.outboxrelay.database.boundary;

import java.sql.SQLException;

/** Tells a database that cannot serve right now from an error of the work itself. */
public final class DatabaseFailures {

    private DatabaseFailures() {
    }

    /**
     * The database could not serve the work at all: SQLState class 08 (the connection failed),
     * 57P01-57P03 (the server is shutting down, crashed or is starting up: PostgreSQL's answers
     * while it restarts) or 53300 (no connection slot left), anywhere in the cause chain.
     */
    public static boolean isUnavailable(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (state.startsWith("08") || state.startsWith("57P") || state.equals("53300")) {
                    return true;
                }
            }
        }
        return false;
    }
}
