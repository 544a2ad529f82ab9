package io.outboxrelay.cdc.engine;

import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

import java.util.ArrayList;
import java.util.List;

/** Reads Debezium's change events: the ids of the outbox rows a batch inserted, in the stream's order. */
public final class OutboxChanges {

    private OutboxChanges() {
    }

    /** Ids of inserted ({@code c}) or snapshot-read ({@code r}) rows; heartbeats and anything else are skipped. */
    public static List<Long> insertedIds(List<SourceRecord> records) {
        List<Long> ids = new ArrayList<>(records.size());
        for (SourceRecord record : records) {
            if (record.value() instanceof Struct change && change.schema().field("op") != null
                    && change.schema().field("after") != null) {
                String op = change.getString("op");
                Struct after = change.getStruct("after");
                if (after != null && ("c".equals(op) || "r".equals(op))) {
                    ids.add(after.getInt64("id"));
                }
            }
        }
        return ids;
    }
}
