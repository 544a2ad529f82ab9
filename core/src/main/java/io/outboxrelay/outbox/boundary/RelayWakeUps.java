package io.outboxrelay.outbox.boundary;

import io.outboxrelay.outbox.control.RelayNotification;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Whom an append wakes once its transaction has committed: this server's relay, and (by NOTIFY) every other's. */
@ApplicationScoped
public class RelayWakeUps {

    @Inject
    RelayNotification relays;

    /**
     * The relay running in this server, run on the committing thread after each transaction that appended (it must
     * return at once); null when it stops.
     */
    public void relayHere(Runnable relay) {
        relays.wakeHere(relay);
    }
}
