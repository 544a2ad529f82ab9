package io.outboxrelay.consumer.control;

import io.outboxrelay.consumer.entity.RecordPlace;
import io.outboxrelay.database.boundary.OutboxDataSources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The consumer dead letters in the database ({@code consumer_dead_letter}, migration V007): written when a
 * group gives a record up, taken by a server that runs the group's handler once an operator asked for a
 * replay, and settled with the replay's outcome. Each statement runs on its own (the non-JTA data source),
 * never in a handler's transaction, which has rolled back when a record is dead-lettered.
 */
@ApplicationScoped
public class ConsumerDeadLetterRows {

    private static final String RECORD = """
            INSERT INTO consumer_dead_letter (consumer_group, event_id, event_type, topic, kafka_partition, kafka_offset,
                record_key, payload, headers, dlt_topic, error_class, error_message, error_stack, attempts,
                first_failed_at, last_failed_at, status)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS jsonb), ?, ?, ?, ?, ?, ?, ?, 'DEAD_LETTERED')
            ON CONFLICT (consumer_group, topic, kafka_partition, kafka_offset) DO UPDATE
               SET error_class = excluded.error_class, error_message = excluded.error_message,
                   error_stack = excluded.error_stack, attempts = consumer_dead_letter.attempts + excluded.attempts,
                   last_failed_at = excluded.last_failed_at, status = 'DEAD_LETTERED', replay_owner = NULL,
                   replay_until = NULL, updated_at = now()""";

    /**
     * Takes up to {@code limit} replays asked for the given groups, or left by a server whose hold ran out
     * (it stopped while replaying): locked rows are skipped, so two servers never take the same one.
     */
    private static final String TAKE = """
            UPDATE consumer_dead_letter d
               SET status = 'REPLAYING', replay_owner = ?, replay_until = now() + ? * interval '1 millisecond',
                   updated_at = now()
             WHERE d.id IN (SELECT id FROM consumer_dead_letter
                             WHERE consumer_group = ANY (?)
                               AND (status = 'REPLAY_REQUESTED' OR (status = 'REPLAYING' AND replay_until < now()))
                             ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)
            RETURNING d.id, d.consumer_group, d.topic, d.kafka_partition, d.kafka_offset, d.record_key, d.payload,
                      d.headers::text AS headers, d.attempts""";

    private static final String REPLAYED = """
            UPDATE consumer_dead_letter
               SET status = 'REPLAYED', replayed_at = now(), replay_outcome = ?, replay_owner = NULL, replay_until = NULL,
                   updated_at = now()
             WHERE id = ? AND status = 'REPLAYING' AND replay_owner = ?""";

    private static final String FAILED_AGAIN = """
            UPDATE consumer_dead_letter
               SET status = 'DEAD_LETTERED', error_class = ?, error_message = ?, error_stack = ?,
                   attempts = attempts + ?, last_failed_at = ?, replay_owner = NULL, replay_until = NULL, updated_at = now()
             WHERE id = ? AND status = 'REPLAYING' AND replay_owner = ?""";

    /** A dead letter a server took to replay: its row id, its group, and the record rebuilt from the row. */
    public record Taken(long id, String group, ConsumerRecord<String, String> record) {
    }

    @Inject
    OutboxDataSources dataSources;

    /** Records (or, for a record dead-lettered again, updates) the group's dead letter of {@code record}. */
    public void record(String group, ConsumerRecord<String, String> record, Retrying.Result failure) throws SQLException {
        Throwable error = failure.lastError();
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement insert = connection.prepareStatement(RECORD)) {
            int i = 1;
            insert.setString(i++, group);
            insert.setObject(i++, eventId(record).orElse(null));
            insert.setString(i++, IncomingEvents.header(record, "ce_type"));
            insert.setString(i++, record.topic());
            insert.setInt(i++, record.partition());
            insert.setLong(i++, record.offset());
            insert.setString(i++, record.key());
            insert.setString(i++, withoutNul(record.value()));
            insert.setString(i++, headersJson(record));
            insert.setString(i++, ConsumerDeadLetters.topicFor(record.topic(), group));
            insert.setString(i++, error.getClass().getName());
            insert.setString(i++, withoutNul(String.valueOf(error.getMessage())));
            insert.setString(i++, withoutNul(ConsumerDeadLetters.stackTrace(error)));
            insert.setInt(i++, failure.attempts());
            insert.setTimestamp(i++, Timestamp.from(failure.firstFailure()));
            insert.setTimestamp(i, Timestamp.from(failure.lastFailure()));
            insert.executeUpdate();
        }
    }

    /** Takes replays asked for {@code groups} and holds them for {@code owner} until {@code hold} has passed. */
    public List<Taken> take(List<String> groups, String owner, Duration hold, int limit) throws SQLException {
        List<Taken> taken = new ArrayList<>();
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement take = connection.prepareStatement(TAKE)) {
            take.setString(1, owner);
            take.setLong(2, hold.toMillis());
            take.setArray(3, connection.createArrayOf("varchar", groups.toArray()));
            take.setInt(4, limit);
            try (ResultSet rows = take.executeQuery()) {
                while (rows.next()) {
                    taken.add(new Taken(rows.getLong("id"), rows.getString("consumer_group"), recordOf(rows)));
                }
            }
        }
        return taken;
    }

    /** The replay reached the handler: {@code outcome} PROCESSED, or DUPLICATE if the group had already handled the event. */
    public void replayed(long id, String owner, String outcome) throws SQLException {
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement update = connection.prepareStatement(REPLAYED)) {
            update.setString(1, outcome);
            update.setLong(2, id);
            update.setString(3, owner);
            update.executeUpdate();
        }
    }

    /** The replay failed as well: the row waits for an operator again, with this failure's error and attempts added. */
    public void failedAgain(long id, String owner, Retrying.Result failure) throws SQLException {
        Throwable error = failure.lastError();
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement update = connection.prepareStatement(FAILED_AGAIN)) {
            update.setString(1, error.getClass().getName());
            update.setString(2, withoutNul(String.valueOf(error.getMessage())));
            update.setString(3, withoutNul(ConsumerDeadLetters.stackTrace(error)));
            update.setInt(4, failure.attempts());
            update.setTimestamp(5, Timestamp.from(failure.lastFailure()));
            update.setLong(6, id);
            update.setString(7, owner);
            update.executeUpdate();
        }
    }

    static Optional<UUID> eventId(ConsumerRecord<?, ?> record) {
        String id = IncomingEvents.eventIdHeader(record);
        try {
            return Optional.ofNullable(id).map(UUID::fromString);
        } catch (IllegalArgumentException notUuid) {
            return Optional.empty();
        }
    }

    /** The record's headers as one JSON object, the last value of each name, read as UTF-8. */
    static String headersJson(ConsumerRecord<?, ?> record) {
        JsonObjectBuilder headers = Json.createObjectBuilder();
        for (Header header : record.headers()) {
            if (header.value() != null) {
                headers.add(header.key(), withoutNul(new String(header.value(), StandardCharsets.UTF_8)));
            }
        }
        return headers.build().toString();
    }

    /** The record as its consumer read it, rebuilt from the row, for the group's handler. */
    static ConsumerRecord<String, String> recordOf(ResultSet row) throws SQLException {
        RecordHeaders headers = new RecordHeaders();
        try (JsonReader reader = Json.createReader(new StringReader(row.getString("headers")))) {
            JsonObject object = reader.readObject();
            object.forEach((name, value) -> headers.add(name, (value instanceof JsonString text
                    ? text.getString() : value.toString()).getBytes(StandardCharsets.UTF_8)));
        }
        return new ConsumerRecord<>(row.getString("topic"), row.getInt("kafka_partition"), row.getLong("kafka_offset"),
                ConsumerRecord.NO_TIMESTAMP, TimestampType.NO_TIMESTAMP_TYPE, ConsumerRecord.NULL_SIZE,
                ConsumerRecord.NULL_SIZE, row.getString("record_key"), row.getString("payload"), headers, Optional.empty());
    }

    /** PostgreSQL's text cannot hold a NUL character; a poison record's value may. */
    private static String withoutNul(String text) {
        return text == null ? null : text.replace('\0', '\uFFFD');
    }
}
