package io.outboxrelay.relay.control;

import io.outboxrelay.relay.entity.ClaimedEvent;
import io.outboxrelay.relay.entity.PublishResult;
import org.junit.jupiter.api.Test;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class SendLayersTest {

    @Test
    void eachAggregatesEventsGoOneLayerAfterAnotherInIdOrderWhateverOrderTheClaimReturnedThem() {
        SendLayers layers = SendLayers.of(List.of(event(7, "Order", "a"), event(3, "Order", "b"),
                event(1, "Order", "a"), event(5, "Order", "a"), event(2, "Order", "b")));

        assertThat(layers.count()).isEqualTo(3);
        assertThat(layers.layer(0)).containsExactly(1L, 2L);
        assertThat(layers.layer(1)).containsExactly(3L, 5L);
        assertThat(layers.layer(2)).containsExactly(7L);
    }

    @Test
    void aggregatesOfTwoTypesSharingAnIdAreTwoAggregates() {
        SendLayers layers = SendLayers.of(List.of(event(1, "Order", "42"), event(2, "Invoice", "42")));

        assertThat(layers.count()).isEqualTo(1);
        assertThat(layers.layer(0)).containsExactly(1L, 2L);
    }

    @Test
    void anEventGoesOnlyOnceTheEventBeforeItOfItsAggregateWasAcknowledged() {
        SendLayers layers = SendLayers.of(List.of(event(1, "Order", "a"), event(2, "Order", "a"),
                event(3, "Order", "b"), event(4, "Order", "b"), event(5, "Order", "c"), event(6, "Order", "c")));

        Map<Long, PublishResult> firstLayer = Map.of(
                1L, new PublishResult.Acked(0, 10),
                3L, new PublishResult.Failed(new IllegalStateException("refused")),
                5L, new PublishResult.NotSent("the lease ran short"));

        assertThat(layers.mayGo(1, Map.of())).as("first of its aggregate").isTrue();
        assertThat(layers.mayGo(2, firstLayer)).as("its predecessor landed").isTrue();
        assertThat(layers.mayGo(4, firstLayer)).as("its predecessor was refused").isFalse();
        assertThat(layers.mayGo(6, firstLayer)).as("its predecessor was not sent").isFalse();
        assertThat(layers.mayGo(2, Map.of())).as("its predecessor not answered yet").isFalse();
    }

    @Test
    void togetherIsOneLayerWhateverTheAggregates() {
        assertThat(SendLayers.together(List.of(4L, 9L, 2L)).layer(0)).containsExactly(4L, 9L, 2L);
        assertThat(SendLayers.together(List.of()).count()).isZero();
    }

    private static ClaimedEvent event(long id, String aggregateType, String aggregateId) {
        return new ClaimedEvent(id, UUID.randomUUID(), aggregateType, aggregateId, "Happened", 1, "events", "{}",
                Map.of(), 0, OffsetDateTime.now(), null);
    }
}
