package io.outboxrelay.database.boundary;

import jakarta.persistence.PersistenceException;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

class DatabaseFailuresTest {

    @Test
    void aDatabaseThatIsRestartingOrUnreachableIsUnavailableNotAServerBug() {
        for (String state : new String[] {"08001", "08006", "57P01", "57P02", "57P03", "53300"}) {
            Throwable failure = new RuntimeException(new PersistenceException(new SQLException("down", state)));
            assertThat(DatabaseFailures.isUnavailable(failure)).as(state).isTrue();
        }
    }

    @Test
    void otherDatabaseErrorsStayUnexpected() {
        for (String state : new String[] {"23505", "42P01", "40001"}) {
            Throwable failure = new RuntimeException(new SQLException("broken", state));
            assertThat(DatabaseFailures.isUnavailable(failure)).as(state).isFalse();
        }
        assertThat(DatabaseFailures.isUnavailable(new IllegalStateException("bug"))).isFalse();
    }
}
