package io.outboxrelay.consumer.boundary;

import io.outboxrelay.consumer.entity.IncomingEvent;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConsumerContextTest {

    @Test
    void theHandlerSeesItsEventAndTraceAndNothingLeaksAfterIt() {
        IncomingEvent event = new IncomingEvent(UUID.randomUUID(), "OrderCreated", "o-1", "{}",
                "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "checkout-4711");
        AtomicReference<Optional<IncomingEvent>> seen = new AtomicReference<>();

        ConsumerContext.run(event, () -> seen.set(ConsumerContext.current()));

        assertThat(seen.get()).contains(event);
        assertThat(ConsumerContext.current()).isEmpty();
    }

    @Test
    void aFailingHandlerLeavesNoContextBehind() {
        IncomingEvent event = new IncomingEvent(UUID.randomUUID(), "OrderCreated", "o-1", "{}");

        assertThatThrownBy(() -> ConsumerContext.run(event, () -> {
            throw new IllegalStateException("downstream unavailable");
        })).hasMessage("downstream unavailable");
        assertThat(ConsumerContext.current()).isEmpty();
    }
}
