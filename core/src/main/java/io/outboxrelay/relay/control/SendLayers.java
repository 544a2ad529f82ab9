package io.outboxrelay.relay.control;

import io.outboxrelay.relay.entity.ClaimedEvent;
import io.outboxrelay.relay.entity.PublishResult;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A batch's events in the order the relay hands them to Kafka: layer k holds the (k+1)-th event of each aggregate
 * the batch holds, and an event goes only once Kafka acknowledged the event before it. Two events of an aggregate
 * handed over together could land in the wrong order: if Kafka refuses the first, or it times out, the producer may
 * still deliver the second (an idempotent producer keeps the order of what it delivers, not of what it gives up on),
 * and two events on different topics go to different brokers. So the second waits for the first's acknowledgement,
 * exactly as it did when a batch took one event per aggregate and the next batch took the second.
 */
public final class SendLayers {

    private final List<List<Long>> layers;
    /** Each event's predecessor: the event before it of its aggregate in the batch. */
    private final Map<Long, Long> predecessors;

    private SendLayers(List<List<Long>> layers, Map<Long, Long> predecessors) {
        this.layers = layers;
        this.predecessors = predecessors;
    }

    /** The claimed events layered by aggregate, each aggregate's events in id order. */
    public static SendLayers of(Collection<ClaimedEvent> claimed) {
        List<ClaimedEvent> inOrder = new ArrayList<>(claimed);
        inOrder.sort(Comparator.comparingLong(ClaimedEvent::id));
        Map<AggregateRef, Long> latest = new HashMap<>();
        Map<Long, Integer> layerOf = new HashMap<>();
        Map<Long, Long> predecessors = new HashMap<>();
        List<List<Long>> layers = new ArrayList<>();
        for (ClaimedEvent event : inOrder) {
            Long before = latest.put(new AggregateRef(event.aggregateType(), event.aggregateId()), event.id());
            int layer = before == null ? 0 : layerOf.get(before) + 1;
            layerOf.put(event.id(), layer);
            if (before != null) {
                predecessors.put(event.id(), before);
            }
            if (layer == layers.size()) {
                layers.add(new ArrayList<>());
            }
            layers.get(layer).add(event.id());
        }
        return new SendLayers(layers, predecessors);
    }

    /** One layer: events that may all be handed over together (dead letters, events of distinct aggregates). */
    public static SendLayers together(Collection<Long> ids) {
        return new SendLayers(ids.isEmpty() ? List.of() : List.of(List.copyOf(ids)), Map.of());
    }

    public int count() {
        return layers.size();
    }

    /** The events of layer {@code layer}, in id order. */
    public List<Long> layer(int layer) {
        return layers.get(layer);
    }

    /**
     * Whether the event may be handed over, given what became of the layers before it: it is first of its aggregate
     * in the batch, or Kafka acknowledged its predecessor.
     */
    public boolean mayGo(long id, Map<Long, PublishResult> results) {
        Long predecessor = predecessors.get(id);
        return predecessor == null || results.get(predecessor) instanceof PublishResult.Acked;
    }

    /** An aggregate as the record's key names it; two types may share an id. */
    private record AggregateRef(String type, String id) {
    }
}
