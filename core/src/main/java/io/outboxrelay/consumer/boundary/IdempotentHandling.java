package io.outboxrelay.consumer.boundary;

import io.outboxrelay.consumer.control.ConsumedEvents;
import io.outboxrelay.consumer.entity.IncomingEvent;
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

    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public Outcome handleOnce(String group, IncomingEvent event, Consumer<IncomingEvent> handler) {
        if (!consumed.markConsumed(group, event.eventId(), event.eventType())) {
            return Outcome.DUPLICATE;
        }
        ConsumerContext.run(event, () -> handler.accept(event));
        return Outcome.HANDLED;
    }
}
