package io.outboxrelay.tracing.control;

import io.outboxrelay.tracing.boundary.MessageSpan;

import java.util.Map;
import java.util.function.Function;

/** Where spans come from: OpenTelemetry when the server traces, else {@link #NONE}. */
public interface Spans {

    Spans NONE = new Spans() {
        @Override
        public boolean active() {
            return false;
        }

        @Override
        public Map<String, String> currentContext() {
            return Map.of();
        }

        @Override
        public MessageSpan sending(String topic, String eventId, String key, int attempt, Function<String, String> parent) {
            return MessageSpan.NONE;
        }

        @Override
        public MessageSpan processing(String group, String topic, int partition, long offset, String eventId,
                                      boolean replay, Function<String, String> parent) {
            return MessageSpan.NONE;
        }
    };

    boolean active();

    Map<String, String> currentContext();

    MessageSpan sending(String topic, String eventId, String key, int attempt, Function<String, String> parent);

    MessageSpan processing(String group, String topic, int partition, long offset, String eventId, boolean replay,
                           Function<String, String> parent);
}
