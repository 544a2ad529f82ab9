package io.outboxrelay.connect;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.ConnectRecord;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.transforms.Transformation;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gives a record of Debezium's outbox event router the headers the polling relay writes: the CloudEvents Kafka
 * binding in binary mode ({@code ce_specversion}, {@code ce_id}, {@code ce_type}, {@code ce_source},
 * {@code ce_subject}, {@code ce_time}, {@code content-type}), then {@code id}, {@code aggregate_type},
 * {@code event_version}, then the headers stored with the event (the {@code headers} column, one Kafka header
 * per entry), in that order. It expects the router to have placed the columns as headers under their own names
 * ({@code event_type:header:ce_type}, {@code aggregate_id:header:ce_subject}, {@code created_at:header:ce_time},
 * {@code aggregate_type:header:aggregate_type}, {@code event_version:header:event_version},
 * {@code headers:header:outbox_headers}); the router's {@code id} header is the event id. Records without
 * those (Debezium's heartbeats) pass unchanged.
 */
public class OutboxRecordHeaders<R extends ConnectRecord<R>> implements Transformation<R> {

    /** The {@code ce_source} of every record; the servers' {@code outbox.cloudevents.source}. */
    public static final String SOURCE = "source";
    static final String STORED_HEADERS = "outbox_headers";

    private static final List<String> PLACED = List.of("ce_type", "ce_subject", "ce_time", "aggregate_type",
            "event_version", STORED_HEADERS, "id");
    private static final ConfigDef CONFIG = new ConfigDef().define(SOURCE, ConfigDef.Type.STRING, "/outbox-relay",
            ConfigDef.Importance.HIGH, "The CloudEvents source (ce_source) of the records: the servers' "
                    + "outbox.cloudevents.source.");
    private static final ObjectMapper JSON = new ObjectMapper();

    private String source;

    @Override
    public void configure(Map<String, ?> configs) {
        source = new AbstractConfig(CONFIG, configs).getString(SOURCE);
    }

    @Override
    public R apply(R record) {
        Headers placed = record.headers();
        if (placed.lastWithName(STORED_HEADERS) == null || placed.lastWithName("id") == null) {
            return record;
        }
        String eventId = required(placed, "id");
        ConnectHeaders headers = new ConnectHeaders();
        headers.addString("ce_specversion", "1.0");
        headers.addString("ce_id", eventId);
        headers.addString("ce_type", required(placed, "ce_type"));
        headers.addString("ce_source", source);
        headers.addString("ce_subject", required(placed, "ce_subject"));
        headers.addString("ce_time", instant(required(placed, "ce_time")));
        headers.addString("content-type", "application/json");
        headers.addString("id", eventId);
        headers.addString("aggregate_type", required(placed, "aggregate_type"));
        headers.addString("event_version", required(placed, "event_version"));
        Header stored = placed.lastWithName(STORED_HEADERS);
        storedHeaders(stored.value() == null ? null : stored.value().toString()).forEach(headers::addString);
        for (Header other : placed) {
            if (!PLACED.contains(other.key())) {
                headers.add(other.key(), other.value(), other.schema());
            }
        }
        return record.newRecord(record.topic(), record.kafkaPartition(), record.keySchema(), record.key(),
                record.valueSchema(), record.value(), record.timestamp(), headers);
    }

    /** The stored headers, a JSON object of strings as the relay writes it; an entry in JSON's order. */
    static Map<String, String> storedHeaders(String json) {
        if (json == null || json.isBlank()) {
            return Map.of();
        }
        try {
            JsonNode object = JSON.readTree(json);
            if (!object.isObject()) {
                throw new DataException("the outbox row's headers are not a JSON object: " + json);
            }
            Map<String, String> stored = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> fields = object.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                JsonNode value = field.getValue();
                stored.put(field.getKey(), value.isTextual() ? value.asText() : value.toString());
            }
            return stored;
        } catch (JsonProcessingException invalid) {
            throw new DataException("the outbox row's headers are not JSON: " + json, invalid);
        }
    }

    /** {@code ce_time} as the relay writes it: the instant in UTC, ISO-8601 (Debezium gives the column's text). */
    static String instant(String timestamp) {
        try {
            return DateTimeFormatter.ISO_INSTANT.format(OffsetDateTime.parse(timestamp).toInstant());
        } catch (DateTimeParseException notATimestamp) {
            throw new DataException("created_at is not a timestamp with time zone: " + timestamp, notATimestamp);
        }
    }

    private static String required(Headers headers, String name) {
        Header header = headers.lastWithName(name);
        if (header == null || header.value() == null) {
            throw new DataException("the outbox record has no '" + name + "' header: is the event router's"
                    + " table.fields.additional.placement the documented one?");
        }
        return header.value().toString();
    }

    @Override
    public ConfigDef config() {
        return CONFIG;
    }

    @Override
    public void close() {
        // nothing held
    }
}
