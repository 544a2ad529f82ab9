package io.outboxrelay.console.events.boundary;

import io.outboxrelay.console.consumers.boundary.ConsumerDeadLetterQueries;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetter;
import io.outboxrelay.console.events.control.EventCriteria;
import io.outboxrelay.console.events.control.Timeline;
import io.outboxrelay.console.events.entity.AuditEntry;
import io.outboxrelay.console.events.entity.ConsumerStory;
import io.outboxrelay.console.events.entity.EventDetail;
import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.console.events.entity.EventPage;
import io.outboxrelay.console.events.entity.EventSummary;
import io.outboxrelay.database.boundary.OutboxDataSources;
import io.outboxrelay.lag.boundary.LagSnapshot;
import io.outboxrelay.outbox.entity.EventStatus;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/** Read-only queries for operators, newest first, paged by a keyset cursor (the row id). */
@ApplicationScoped
public class Events {

    private static final int LAST_ERROR_PREVIEW = 300;

    private static final EventCriteria DEAD_LETTERS = EventCriteria.of(new EventFilter(null, null, null, null,
            EnumSet.of(EventStatus.DLT, EventStatus.DEAD), null, null));

    @Inject
    OutboxDataSources dataSources;

    @Inject
    ConsumerDeadLetterQueries consumerDeadLetters;

    @Inject
    LagSnapshot lag;

    /** One dead-letter triage group: same topic, same state, same error class. */
    public record DeadLetterGroup(String topic, String status, String errorClass, long events,
                                  OffsetDateTime firstFailedAt, OffsetDateTime lastChangedAt) {
    }

    private static final String SUMMARY_COLUMNS = "id, event_id, aggregate_type, aggregate_id, event_type, topic,"
            + " " + EventCriteria.STATUS + " AS status,"
            + " attempts, replay_count, created_at, published_at, left(last_error, " + LAST_ERROR_PREVIEW + ") AS last_error";

    public EventPage search(EventFilter filter, Long cursor, int size) throws SQLException {
        EventCriteria criteria = EventCriteria.of(filter);
        if (cursor != null) {
            criteria = criteria.and("id < ?", cursor);
        }
        String sql = "SELECT " + SUMMARY_COLUMNS + " FROM " + EventCriteria.EVENTS + " WHERE " + criteria.where() + " ORDER BY id DESC LIMIT ?";
        List<Object> parameters = new ArrayList<>(criteria.parameters());
        parameters.add(size + 1); // one more than asked tells whether another page exists
        List<Long> ids = new ArrayList<>();
        List<EventSummary> events = summaries(sql, parameters, ids);
        boolean more = events.size() > size;
        if (more) {
            events.remove(size);
        }
        return new EventPage(events, more ? Long.toString(ids.get(size - 1)) : null);
    }

    /**
     * A page by position, for the console's paged table: newest (or oldest) first, which is the
     * id index's order. Deep pages cost their offset; the console counts at most {@code cap} rows.
     */
    public List<EventSummary> page(EventFilter filter, int offset, int size, boolean oldestFirst) throws SQLException {
        EventCriteria criteria = EventCriteria.of(filter);
        String sql = "SELECT " + SUMMARY_COLUMNS + " FROM " + EventCriteria.EVENTS + " WHERE " + criteria.where()
                + " ORDER BY id " + (oldestFirst ? "ASC" : "DESC") + " LIMIT ? OFFSET ?";
        List<Object> parameters = new ArrayList<>(criteria.parameters());
        parameters.add(size);
        parameters.add(offset);
        return summaries(sql, parameters, new ArrayList<>());
    }

    /** How many events match, counting no further than {@code cap} (a count of millions is not worth its cost). */
    public long countUpTo(EventFilter filter, long cap) throws SQLException {
        EventCriteria criteria = EventCriteria.of(filter);
        List<Object> parameters = new ArrayList<>(criteria.parameters());
        parameters.add(cap);
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement query = prepare(connection, "SELECT count(*) FROM (SELECT 1 FROM " + EventCriteria.EVENTS + " WHERE "
                     + criteria.where() + " LIMIT ?) matching", parameters);
             ResultSet count = query.executeQuery()) {
            count.next();
            return count.getLong(1);
        }
    }

    /** DLT and DEAD events grouped the way operators triage them, the biggest group first. */
    public List<DeadLetterGroup> deadLetterGroups() throws SQLException {
        String sql = "SELECT topic, status, " + EventCriteria.ERROR_CLASS + " AS error_class, count(*) AS events,"
                + " min(first_failed_at) AS first_failed_at, max(updated_at) AS last_changed_at"
                + " FROM " + EventCriteria.EVENTS + " WHERE " + DEAD_LETTERS.where() + " GROUP BY 1, 2, 3 ORDER BY events DESC, 1, 2, 3";
        List<DeadLetterGroup> groups = new ArrayList<>();
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement query = connection.prepareStatement(sql);
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                groups.add(new DeadLetterGroup(rows.getString("topic"), rows.getString("status"),
                        rows.getString("error_class"), rows.getLong("events"), time(rows, "first_failed_at"),
                        time(rows, "last_changed_at")));
            }
        }
        return groups;
    }

    private List<EventSummary> summaries(String sql, List<Object> parameters, List<Long> ids) throws SQLException {
        List<EventSummary> events = new ArrayList<>();
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement query = prepare(connection, sql, parameters);
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                ids.add(rows.getLong("id"));
                events.add(new EventSummary((UUID) rows.getObject("event_id"), rows.getString("aggregate_type"),
                        rows.getString("aggregate_id"), rows.getString("event_type"), rows.getString("topic"),
                        rows.getString("status"), rows.getInt("attempts"), rows.getInt("replay_count"),
                        time(rows, "created_at"), time(rows, "published_at"), rows.getString("last_error")));
            }
        }
        return events;
    }

    private static final String DETAIL_COLUMNS = "aggregate_type, aggregate_id, event_type, event_version, topic, attempts,"
            + " last_error, next_attempt_at, last_attempt_at, first_failed_at, kafka_partition, kafka_offset, published_at,"
            + " created_at, updated_at, replay_count, payload::text AS payload_json, headers::text AS headers_json";

    /**
     * The event as the outbox holds it, or, once retention archived it ({@code outbox.retention.archive}), as
     * the archive does.
     */
    private static final String DETAIL = "SELECT " + DETAIL_COLUMNS + ", " + EventCriteria.STATUS + " AS shown_status,"
            + " coalesce(l.lease_owner, outbox_event.lease_owner) AS holder,"
            + " coalesce(l.lease_until, outbox_event.lease_until) AS held_until, NULL::timestamptz AS archived_at"
            + " FROM " + EventCriteria.EVENTS + " LEFT JOIN (SELECT id, lease_owner, lease_until FROM outbox_unsent) l"
            + " ON l.id = outbox_event.id WHERE event_id = ?"
            + " UNION ALL SELECT " + DETAIL_COLUMNS + ", status, lease_owner, lease_until, archived_at"
            + " FROM outbox_event_archive WHERE event_id = ? LIMIT 1";

    public Optional<EventDetail> find(UUID eventId) throws SQLException {
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement query = prepare(connection, DETAIL, List.of(eventId, eventId));
             ResultSet row = query.executeQuery()) {
            if (!row.next()) {
                return Optional.empty();
            }
            EventDetail event = new EventDetail(eventId, row.getString("aggregate_type"), row.getString("aggregate_id"),
                    row.getString("event_type"), row.getInt("event_version"), row.getString("topic"),
                    row.getString("shown_status"), row.getInt("attempts"), row.getString("last_error"),
                    time(row, "next_attempt_at"), time(row, "last_attempt_at"), time(row, "first_failed_at"),
                    row.getString("holder"), time(row, "held_until"),
                    (Integer) row.getObject("kafka_partition"), (Long) row.getObject("kafka_offset"),
                    time(row, "published_at"), time(row, "created_at"), time(row, "updated_at"), time(row, "archived_at"),
                    row.getInt("replay_count"), json(row.getString("payload_json")), json(row.getString("headers_json")),
                    audit(connection, "event_id = ?", List.of(eventId), null, 100),
                    consumers(connection, eventId, row.getString("topic"), (Integer) row.getObject("kafka_partition"),
                            (Long) row.getObject("kafka_offset")), List.of());
            return Optional.of(event.withTimeline(Timeline.of(event)));
        }
    }

    /**
     * What each consumer group did with the event: its record of handling it, its dead letters, and, from the
     * latest lag snapshot, whether its committed offset is past the event's record: which also lists the groups
     * that read the topic but neither handled the event here nor gave it up (they have not reached it, or do
     * not use this product's consumer).
     */
    private List<ConsumerStory> consumers(Connection connection, UUID eventId, String topic, Integer partition,
                                          Long offset) throws SQLException {
        Map<String, Boolean> past = new TreeMap<>();
        if (partition != null && offset != null) {
            lag.figures().consumers().stream()
                    .filter(position -> position.topic().equals(topic) && position.partition() == partition)
                    .forEach(position -> past.put(position.group(), position.committed() > offset));
        }
        Map<String, List<ConsumerDeadLetter>> letters = new TreeMap<>();
        for (ConsumerDeadLetter letter : consumerDeadLetters.ofEvent(eventId)) {
            letters.computeIfAbsent(letter.consumerGroup(), group -> new ArrayList<>()).add(letter);
        }
        Map<String, ConsumerStory> stories = new TreeMap<>();
        try (PreparedStatement query = prepare(connection, "SELECT consumer_group, consumed_at, kafka_topic, kafka_partition,"
                + " kafka_offset, duplicates, last_duplicate_at FROM consumed_event WHERE event_id = ?", List.of(eventId));
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                String group = rows.getString("consumer_group");
                stories.put(group, new ConsumerStory(group, time(rows, "consumed_at"), rows.getString("kafka_topic"),
                        (Integer) rows.getObject("kafka_partition"), (Long) rows.getObject("kafka_offset"),
                        rows.getInt("duplicates"), time(rows, "last_duplicate_at"), letters.getOrDefault(group, List.of()),
                        past.get(group)));
            }
        }
        letters.forEach((group, ofGroup) -> stories.putIfAbsent(group,
                new ConsumerStory(group, null, null, null, null, 0, null, ofGroup, past.get(group))));
        past.forEach((group, isPast) -> stories.putIfAbsent(group,
                new ConsumerStory(group, null, null, null, null, 0, null, List.of(), isPast)));
        return List.copyOf(stories.values());
    }

    public List<AuditEntry> audit(Long cursor, int size) throws SQLException {
        try (Connection connection = dataSources.nonTransactional().getConnection()) {
            return audit(connection, "TRUE", List.of(), cursor, size);
        }
    }

    private static List<AuditEntry> audit(Connection connection, String where, List<Object> parameters, Long cursor,
                                          int size) throws SQLException {
        List<Object> all = new ArrayList<>(parameters);
        String sql = "SELECT id, at, actor, action, event_id, filter::text AS filter_json, cutoff, matched, replayed,"
                + " consumer_group"
                + " FROM replay_audit WHERE " + where;
        if (cursor != null) {
            sql += " AND id < ?";
            all.add(cursor);
        }
        sql += " ORDER BY id DESC LIMIT ?";
        all.add(size);
        List<AuditEntry> entries = new ArrayList<>();
        try (PreparedStatement query = prepare(connection, sql, all); ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                entries.add(new AuditEntry(rows.getLong("id"), time(rows, "at"), rows.getString("actor"),
                        rows.getString("action"), (UUID) rows.getObject("event_id"),
                        rows.getString("filter_json") == null ? null : json(rows.getString("filter_json")),
                        time(rows, "cutoff"), rows.getInt("matched"), rows.getInt("replayed"), rows.getString("consumer_group")));
            }
        }
        return entries;
    }

    static PreparedStatement prepare(Connection connection, String sql, List<Object> parameters) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < parameters.size(); i++) {
            statement.setObject(i + 1, parameters.get(i));
        }
        return statement;
    }

    private static OffsetDateTime time(ResultSet row, String column) throws SQLException {
        return row.getObject(column, OffsetDateTime.class);
    }

    private static JsonValue json(String text) {
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return reader.readValue();
        }
    }
}
