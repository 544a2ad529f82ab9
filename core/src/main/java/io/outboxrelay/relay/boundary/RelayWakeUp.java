package io.outboxrelay.relay.boundary;

import io.outboxrelay.outbox.entity.EventAppended;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;

/** Wakes this server's relay as soon as a transaction that appended events has committed. */
@ApplicationScoped
public class RelayWakeUp {

    @Inject
    Relay relay;

    void onCommit(@Observes(during = TransactionPhase.AFTER_SUCCESS) EventAppended appended) {
        relay.wake();
    }
}
