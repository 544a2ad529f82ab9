package io.outboxrelay.faults;

import org.awaitility.Awaitility;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Every wait of the suite: a condition checked until it holds, failing after a deadline. */
final class Waits {

    private Waits() {
    }

    static void until(String what, Duration patience, Duration every, Callable<Boolean> condition) {
        Awaitility.await(what).atMost(patience).pollDelay(Duration.ZERO).pollInterval(every)
                .ignoreExceptionsMatching(e -> e instanceof java.sql.SQLException)
                .until(condition);
    }
}
