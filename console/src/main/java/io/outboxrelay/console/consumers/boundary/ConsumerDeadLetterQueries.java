package io.outboxrelay.console.consumers.boundary;

import io.outboxrelay.console.consumers.control.ConsumerDeadLetterCriteria;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetter;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterDetail;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterFilter;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterGroup;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterPage;
import io.outboxrelay.database.boundary.OutboxDataSources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonReader;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Read-only queries over the consumer dead letters, newest first, paged by a keyset cursor (the row id). */
@ApplicationScoped
public class ConsumerDeadLetterQueries {

    private static final int ERROR_PREVIEW = 300;

    private static final String COLUMNS = "id, consumer_group, event_id, event_type, topic, kafka_partition, kafka_offset,"
            + " dlt_topic, error_class, left(error_message, " + ERROR_PREVIEW + ") AS error_message, attempts,"
            + " first_failed_at, last_failed_at, status, replay_count, replayed_at, replay_outcome, created_at, updated_at";

    @Inject
    OutboxDataSources dataSources;

    public ConsumerDeadLetterPage search(ConsumerDeadLetterFilter filter, Long cursor, int size) throws SQLException {
        ConsumerDeadLetterCriteria criteria = ConsumerDeadLetterCriteria.of(filter);
        if (cursor != null) {
            criteria = criteria.and("id < ?", cursor);
        }
        List<Object> parameters = new ArrayList<>(criteria.parameters());
        parameters.add(size + 1); // one more than asked tells whether another page exists
        List<ConsumerDeadLetter> letters = list("SELECT " + COLUMNS + " FROM consumer_dead_letter WHERE " + criteria.where()
                + " ORDER BY id DESC LIMIT ?", parameters);
        boolean more = letters.size() > size;
        if (more) {
            letters.remove(size);
        }
        return new ConsumerDeadLetterPage(letters, more ? Long.toString(letters.get(size - 1).id()) : null);
    }

    /** A page by position, for the console's paged table, newest first. */
    public List<ConsumerDeadLetter> page(ConsumerDeadLetterFilter filter, int offset, int size) throws SQLException {
        ConsumerDeadLetterCriteria criteria = ConsumerDeadLetterCriteria.of(filter);
        List<Object> parameters = new ArrayList<>(criteria.parameters());
        parameters.add(size);
        parameters.add(offset);
        return list("SELECT " + COLUMNS + " FROM consumer_dead_letter WHERE " + criteria.where()
                + " ORDER BY id DESC LIMIT ? OFFSET ?", parameters);
    }

    public long count(ConsumerDeadLetterFilter filter) throws SQLException {
        ConsumerDeadLetterCriteria criteria = ConsumerDeadLetterCriteria.of(filter);
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement query = prepare(connection, "SELECT count(*) FROM consumer_dead_letter WHERE "
                     + criteria.where(), criteria.parameters());
             ResultSet count = query.executeQuery()) {
            count.next();
            return count.getLong(1);
        }
    }

    /** The dead letters waiting for an operator, grouped the way operators triage them, the biggest group first. */
    public List<ConsumerDeadLetterGroup> groups() throws SQLException {
        String sql = "SELECT consumer_group, topic, error_class, count(*) AS letters, min(first_failed_at) AS first_failed_at,"
                + " max(last_failed_at) AS last_failed_at FROM consumer_dead_letter WHERE status = 'DEAD_LETTERED'"
                + " GROUP BY 1, 2, 3 ORDER BY letters DESC, 1, 2, 3";
        List<ConsumerDeadLetterGroup> groups = new ArrayList<>();
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement query = connection.prepareStatement(sql);
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                groups.add(new ConsumerDeadLetterGroup(rows.getString("consumer_group"), rows.getString("topic"),
                        rows.getString("error_class"), rows.getLong("letters"), time(rows, "first_failed_at"),
                        time(rows, "last_failed_at")));
            }
        }
        return groups;
    }

    public Optional<ConsumerDeadLetterDetail> find(long id) throws SQLException {
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement query = prepare(connection, "SELECT " + COLUMNS + ", record_key, payload,"
                     + " headers::text AS headers_json, error_stack, error_message AS whole_message"
                     + " FROM consumer_dead_letter WHERE id = ?", List.of(id));
             ResultSet row = query.executeQuery()) {
            if (!row.next()) {
                return Optional.empty();
            }
            ConsumerDeadLetter letter = letter(row, row.getString("whole_message"));
            try (JsonReader headers = Json.createReader(new StringReader(row.getString("headers_json")))) {
                return Optional.of(new ConsumerDeadLetterDetail(letter, row.getString("record_key"), row.getString("payload"),
                        headers.readValue(), row.getString("error_stack")));
            }
        }
    }

    /** Every group's dead letter of one event, oldest first: part of the event's story. */
    public List<ConsumerDeadLetter> ofEvent(UUID eventId) throws SQLException {
        return list("SELECT " + COLUMNS + " FROM consumer_dead_letter WHERE event_id = ? ORDER BY id", List.of(eventId));
    }

    private List<ConsumerDeadLetter> list(String sql, List<Object> parameters) throws SQLException {
        List<ConsumerDeadLetter> letters = new ArrayList<>();
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement query = prepare(connection, sql, parameters);
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                letters.add(letter(rows, rows.getString("error_message")));
            }
        }
        return letters;
    }

    private static ConsumerDeadLetter letter(ResultSet row, String errorMessage) throws SQLException {
        return new ConsumerDeadLetter(row.getLong("id"), row.getString("consumer_group"), (UUID) row.getObject("event_id"),
                row.getString("event_type"), row.getString("topic"), row.getInt("kafka_partition"),
                row.getLong("kafka_offset"), row.getString("dlt_topic"), row.getString("error_class"), errorMessage,
                row.getInt("attempts"), time(row, "first_failed_at"), time(row, "last_failed_at"), row.getString("status"),
                row.getInt("replay_count"), time(row, "replayed_at"), row.getString("replay_outcome"),
                time(row, "created_at"), time(row, "updated_at"));
    }

    private static PreparedStatement prepare(Connection connection, String sql, List<Object> parameters) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < parameters.size(); i++) {
            statement.setObject(i + 1, parameters.get(i));
        }
        return statement;
    }

    private static OffsetDateTime time(ResultSet row, String column) throws SQLException {
        return row.getObject(column, OffsetDateTime.class);
    }
}
