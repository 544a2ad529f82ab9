package io.outboxrelay.cdc.engine;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class OutboxChangesTest {

    private static final Schema ROW = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).optional().build();
    private static final Schema ENVELOPE = SchemaBuilder.struct()
            .field("before", ROW).field("after", ROW).field("op", Schema.STRING_SCHEMA).build();
    private static final Schema HEARTBEAT = SchemaBuilder.struct().field("ts_ms", Schema.INT64_SCHEMA).build();

    @Test
    void takesTheIdsOfInsertedRowsInTheStreamsOrder() {
        List<SourceRecord> batch = List.of(change("c", 7L), change("c", 3L), change("r", 12L));

        assertThat(OutboxChanges.insertedIds(batch)).containsExactly(7L, 3L, 12L);
    }

    @Test
    void skipsHeartbeatsUpdatesAndDeletes() {
        SourceRecord heartbeat = new SourceRecord(Map.of(), Map.of(), "__debezium-heartbeat.outbox_relay", HEARTBEAT,
                new Struct(HEARTBEAT).put("ts_ms", 1L));
        Struct deleted = new Struct(ENVELOPE).put("before", new Struct(ROW).put("id", 5L)).put("op", "d");
        SourceRecord delete = new SourceRecord(Map.of(), Map.of(), "outbox_relay.public.outbox_event", ENVELOPE, deleted);
        SourceRecord tombstone = new SourceRecord(Map.of(), Map.of(), "outbox_relay.public.outbox_event", null, null);

        assertThat(OutboxChanges.insertedIds(List.of(heartbeat, change("u", 4L), delete, tombstone, change("c", 9L))))
                .containsExactly(9L);
    }

    private static SourceRecord change(String op, long id) {
        Struct value = new Struct(ENVELOPE).put("after", new Struct(ROW).put("id", id)).put("op", op);
        return new SourceRecord(Map.of(), Map.of(), "outbox_relay.public.outbox_event", ENVELOPE, value);
    }
}
