package io.outboxrelay.relay.control;

import io.outboxrelay.database.boundary.OutboxDataSources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The connections the relay's statements run on. A statement takes a pooled connection of its own, unless the calling
 * thread has opened a {@link Session}: then its statements share one, taken from the pool at the first of them and
 * given back when the session closes. A relay worker opens one for each drain, so that a trickle of events, one small
 * round after another, does not pay twice a round for the pool's check of the connection it hands out (a round trip to
 * the database and back, which {@code validationTimeout} asks for).
 * <p>
 * The check is what keeps a statement off a connection the database has closed (it restarted, or an administrator
 * ended the session), so a session does it itself, when a statement fails: if its connection no longer works, it takes
 * another from the pool and runs the statement once more, as that statement would have run on a checked connection
 * in the first place. The relay's statements allow this: each is one transaction, which either did not happen or
 * happened for good, and each records only for rows whose lease this relay holds, so running one a second time after
 * it took effect finds nothing left to do (a claim whose answer was lost leaves its rows leased until the lease runs
 * out, as it would have without the second run).
 */
@ApplicationScoped
public class RelayConnections {

    private static final int CHECK_SECONDS = 2;

    @Inject
    OutboxDataSources dataSources;

    private final ThreadLocal<Held> sessions = new ThreadLocal<>();

    /** Work on a connection; it must leave the connection as it found it (auto-commit, no transaction open). */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /**
     * Until the returned session closes, the calling thread's statements share one connection. A thread with a
     * session open already gets one that leaves it be.
     */
    public Session open() {
        if (sessions.get() != null) {
            return () -> { };
        }
        Held session = new Held();
        sessions.set(session);
        return session;
    }

    /** Runs {@code work} on the calling thread's session connection, or on a pooled connection of its own. */
    public <T> T run(Work<T> work) throws SQLException {
        Held session = sessions.get();
        if (session == null) {
            try (Connection connection = dataSources.nonTransactional().getConnection()) {
                return work.run(connection);
            }
        }
        boolean checked = session.connection == null; // the pool has just checked it
        if (checked) {
            session.connection = dataSources.nonTransactional().getConnection();
        }
        try {
            return work.run(session.connection);
        } catch (SQLException failed) {
            if (checked || works(session.connection)) {
                throw failed;
            }
            session.giveBack();
            try {
                session.connection = dataSources.nonTransactional().getConnection();
            } catch (SQLException unavailable) {
                failed.addSuppressed(unavailable);
                throw failed;
            }
            return work.run(session.connection);
        }
    }

    private static boolean works(Connection connection) {
        try {
            return connection.isValid(CHECK_SECONDS);
        } catch (SQLException closed) {
            return false;
        }
    }

    /** A thread's statements sharing one connection until {@link #close()}. */
    public interface Session extends AutoCloseable {

        /** Gives the shared connection back to the pool. */
        @Override
        void close();
    }

    /** One thread's shared connection, taken at its first statement. */
    private final class Held implements Session {

        private Connection connection;

        @Override
        public void close() {
            sessions.remove();
            giveBack();
        }

        private void giveBack() {
            if (connection == null) {
                return;
            }
            try {
                connection.close();
            } catch (SQLException alreadyGone) {
                // the pool discards a connection that failed; nothing more to give back
            }
            connection = null;
        }
    }
}
