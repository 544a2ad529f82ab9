package io.outboxrelay.problem.boundary;

import jakarta.persistence.PersistenceException;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

class UnexpectedFailureMapperTest {

    @Test
    void aDatabaseThatIsRestartingOrUnreachableIsUnavailableNotAServerBug() {
        for (String state : new String[] {"08001", "08006", "57P01", "57P02", "57P03", "53300"}) {
            Throwable failure = new RuntimeException(new PersistenceException(new SQLException("down", state)));
            assertThat(UnexpectedFailureMapper.isDatabaseUnavailable(failure)).as(state).isTrue();
        }
    }

    @Test
    void otherDatabaseErrorsStayUnexpected() {
        for (String state : new String[] {"23505", "42P01", "40001"}) {
            Throwable failure = new RuntimeException(new SQLException("broken", state));
            assertThat(UnexpectedFailureMapper.isDatabaseUnavailable(failure)).as(state).isFalse();
        }
        assertThat(UnexpectedFailureMapper.isDatabaseUnavailable(new IllegalStateException("bug"))).isFalse();
    }
}
