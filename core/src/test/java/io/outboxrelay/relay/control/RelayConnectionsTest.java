package io.outboxrelay.relay.control;

import io.outboxrelay.database.boundary.OutboxDataSources;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which connection each of the relay's statements runs on, with and without a session, and after one was lost. */
class RelayConnectionsTest {

    private final Pool pool = new Pool();
    private final RelayConnections connections = connections(pool);

    @Test
    void withoutASessionEveryStatementTakesAConnectionOfItsOwnAndGivesItBack() throws SQLException {
        int first = connections.run(Pooled::number);
        int second = connections.run(Pooled::number);

        assertThat(List.of(first, second)).containsExactly(1, 2);
        assertThat(pool.closed).as("each went back to the pool after its statement").containsExactly(1, 2);
    }

    @Test
    void aSessionsStatementsShareOneConnectionUntilItCloses() throws SQLException {
        List<Integer> used = new ArrayList<>();
        try (RelayConnections.Session session = connections.open()) {
            used.add(connections.run(Pooled::number));
            used.add(connections.run(Pooled::number));
            assertThat(pool.closed).as("nothing given back while the session lasts").isEmpty();
        }

        assertThat(used).containsExactly(1, 1);
        assertThat(pool.closed).containsExactly(1);
        int after = connections.run(Pooled::number);
        assertThat(after).as("after the session, a connection of its own again").isEqualTo(2);
    }

    @Test
    void aStatementOnASessionConnectionTheDatabaseClosedRunsOnceMoreOnAFreshOne() throws SQLException {
        List<Integer> attempts = new ArrayList<>();
        try (RelayConnections.Session session = connections.open()) {
            connections.run(Pooled::number);
            pool.lose(1); // the database restarted between two rounds

            int ranOn = connections.run(connection -> {
                attempts.add(Pooled.number(connection));
                if (!connection.isValid(1)) {
                    throw new SQLException("An I/O error occurred while sending to the backend.", "08006");
                }
                return Pooled.number(connection);
            });

            int next = connections.run(Pooled::number);
            assertThat(ranOn).isEqualTo(2);
            assertThat(next).as("the fresh one is the session's now").isEqualTo(2);
        }
        assertThat(attempts).containsExactly(1, 2);
        assertThat(pool.closed).containsExactly(1, 2);
    }

    @Test
    void aStatementThatFailsOnAWorkingConnectionFailsWithoutASecondRun() {
        List<Integer> attempts = new ArrayList<>();
        try (RelayConnections.Session session = connections.open()) {
            connections.run(Pooled::number);

            assertThatThrownBy(() -> connections.run(connection -> {
                attempts.add(Pooled.number(connection));
                throw new SQLException("deadlock detected", "40P01");
            })).hasMessage("deadlock detected");
        } catch (SQLException unexpected) {
            throw new AssertionError(unexpected);
        }
        assertThat(attempts).as("the database answered: the failure is the statement's own").containsExactly(1);
    }

    @Test
    void aStatementThatFailsOnTheConnectionThePoolHasJustCheckedFailsWithoutASecondRun() {
        List<Integer> attempts = new ArrayList<>();
        pool.loseNext();
        try (RelayConnections.Session session = connections.open()) {
            assertThatThrownBy(() -> connections.run(connection -> {
                attempts.add(Pooled.number(connection));
                throw new SQLException("An I/O error occurred while sending to the backend.", "08006");
            })).hasMessageContaining("I/O error");
        }
        assertThat(attempts).containsExactly(1);
    }

    @Test
    void whenNoFreshConnectionCanBeHadTheStatementsOwnFailureIsReported() throws SQLException {
        try (RelayConnections.Session session = connections.open()) {
            connections.run(Pooled::number);
            pool.lose(1);
            pool.down = true; // and has not come back yet

            assertThatThrownBy(() -> connections.run(connection -> {
                throw new SQLException("An I/O error occurred while sending to the backend.", "08006");
            })).hasMessageContaining("I/O error")
                    .satisfies(failure -> assertThat(failure.getSuppressed()).singleElement()
                            .extracting(Throwable::getMessage).isEqualTo("Connection refused"));
        }
    }

    private static RelayConnections connections(Pool pool) {
        RelayConnections connections = new RelayConnections();
        connections.dataSources = new OutboxDataSources() {
            @Override
            public DataSource nonTransactional() {
                return pool.dataSource();
            }
        };
        return connections;
    }

    /** Numbers the connections it hands out; knows which were given back and which the database closed. */
    private static final class Pool {
        final List<Integer> closed = new ArrayList<>();
        private final List<Integer> lost = new ArrayList<>();
        private int handedOut;
        private boolean loseNext;
        boolean down;

        void lose(int number) {
            lost.add(number);
        }

        void loseNext() {
            loseNext = true;
        }

        DataSource dataSource() {
            return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{DataSource.class},
                    (proxy, method, args) -> {
                        if (!method.getName().equals("getConnection")) {
                            throw new UnsupportedOperationException(method.getName());
                        }
                        if (down) {
                            throw new SQLException("Connection refused", "08001");
                        }
                        int number = ++handedOut;
                        if (loseNext) {
                            lost.add(number);
                            loseNext = false;
                        }
                        return connection(number);
                    });
        }

        private Connection connection(int number) {
            return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[]{Connection.class, Pooled.class}, (proxy, method, args) -> switch (method.getName()) {
                        case "number" -> number;
                        case "close" -> {
                            closed.add(number);
                            yield null;
                        }
                        case "isValid" -> !lost.contains(number);
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }
    }

    /** A test connection that says which one it is. */
    interface Pooled {
        int number();

        static int number(Connection connection) {
            return ((Pooled) connection).number();
        }
    }
}
