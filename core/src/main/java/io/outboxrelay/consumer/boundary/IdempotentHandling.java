package io.outboxrelay.consumer.boundary;

import io.outboxrelay.consumer.control.ConsumedEvents;
import io.outboxrelay.consumer.entity.IncomingEvent;
import io.outboxrelay.consumer.entity.RecordPlace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.util.function.Consumer;

/** Runs a handler at most once per consumer group and event id, in one new JTA transaction. */
@ApplicationScoped
public class IdempotentHandling {

    public enum Outcome { HANDLED, DUPLICATE }

    @Inject
    ConsumedEvents consumed;

    /** As {@link #handleOnce(String, RecordPlace, IncomingEvent, Consumer)}, for an event whose record's place is unknown. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public Outcome handleOnce(String group, IncomingEvent event, Consumer<IncomingEvent> handler) {
        return handleOnce(group, null, event, handler);
    }

    /**
     * Handles the event from the record at {@code place} unless {@code group} already handled it; a
     * duplicate is counted on the group's record of the event (its story shows how many there were).
     */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public Outcome handleOnce(String group, RecordPlace place, IncomingEvent event, Consumer<IncomingEvent> handler) {
        if (!consumed.markConsumed(group, event.eventId(), event.eventType(), place)) {
            return Outcome.DUPLICATE;
        }
        ConsumerContext.run(event, () -> handler.accept(event));
        return Outcome.HANDLED;
    }
}
