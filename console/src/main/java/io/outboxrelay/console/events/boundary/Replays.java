package io.outboxrelay.console.events.boundary;

import io.outboxrelay.console.events.control.EventCriteria;
import io.outboxrelay.console.events.entity.BulkReplayResult;
import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.console.events.entity.EventNotFoundException;
import io.outboxrelay.console.events.entity.NotReplayableException;
import io.outboxrelay.database.boundary.OutboxDataSources;
import io.outboxrelay.time.OutboxClock;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.transaction.Transactional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Sends dead letters (DLT, DEAD) back to the relay: PENDING, due now, attempts reset,
 * replay_count + 1. Each replay and its audit row commit in one transaction, on the JTA data source.
 */
@ApplicationScoped
@Transactional
public class Replays {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(Replays.class.getName());

    private static final String REPLAY_SET = """
            SET status = 'PENDING', attempts = 0, next_attempt_at = ?, first_failed_at = NULL,
                replay_count = replay_count + 1, lease_owner = NULL, lease_until = NULL, updated_at = ?""";

    @Inject
    OutboxDataSources dataSources;

    @Inject
    @OutboxClock
    Clock clock;

    @Inject
    @ConfigProperty(name = "outbox.replay.max-per-request", defaultValue = "1000")
    int maxPerRequest;

    @Inject
    @ConfigProperty(name = "outbox.publisher", defaultValue = "polling")
    String publisher;

    private final Jsonb jsonb = JsonbBuilder.create();

    public int replayOne(UUID eventId, String actor) {
        refuseInConnectMode();
        OffsetDateTime now = OffsetDateTime.now(clock);
        int replayed = update("UPDATE outbox_event " + REPLAY_SET + " WHERE event_id = ? AND status IN ('DLT', 'DEAD')",
                List.of(now, now, eventId));
        if (replayed == 0) {
            String status = status(eventId);
            if (status == null) {
                throw new EventNotFoundException(eventId);
            }
            throw new NotReplayableException("Event " + eventId + " is " + status
                    + "; only DLT and DEAD events can be replayed");
        }
        audit(actor, "REPLAY_ONE", eventId, null, null, 1, 1, now);
        LOG.info(() -> "Event " + eventId + " replayed by " + actor + ": PENDING again");
        return replayed;
    }

    /**
     * Replays the dead letters matching {@code filter} (statuses limited to DLT and DEAD) that
     * were last changed before {@code cutoff}: events that fail while the replay runs are not
     * swept up in it. At most {@code outbox.replay.max-per-request}, oldest first. Dead letters are found in the
     * outbox table itself: their state is the row's own (only a published event's is kept beside it, V014).
     */
    public BulkReplayResult replayMatching(EventFilter filter, boolean dryRun, String actor) {
        refuseInConnectMode();
        OffsetDateTime cutoff = OffsetDateTime.now(clock);
        EventCriteria criteria = EventCriteria.of(filter).and("updated_at <= ?", cutoff);
        int matched = (int) count("SELECT count(*) FROM outbox_event WHERE " + criteria.where(), criteria.parameters());
        if (dryRun) {
            return new BulkReplayResult(true, matched, 0, cutoff);
        }
        OffsetDateTime now = OffsetDateTime.now(clock);
        List<Object> parameters = new ArrayList<>(List.of(now, now));
        parameters.addAll(criteria.parameters());
        parameters.add(maxPerRequest);
        int replayed = update("UPDATE outbox_event " + REPLAY_SET + " WHERE id IN ("
                + "SELECT id FROM outbox_event WHERE " + criteria.where() + " ORDER BY id LIMIT ? FOR UPDATE)", parameters);
        String filterJson = jsonb.toJson(filter);
        audit(actor, "REPLAY_BULK", null, filterJson, cutoff, matched, replayed, now);
        LOG.info(() -> actor + " replayed " + replayed + " of " + matched + " dead letter(s) matching " + filterJson
                + " last changed before " + cutoff);
        return new BulkReplayResult(false, matched, replayed, cutoff);
    }

    /**
     * In Connect mode a Kafka Connect worker publishes what is appended, and nothing else: a replayed row would wait
     * for ever, so a replay is refused rather than accepted and never done.
     */
    private void refuseInConnectMode() {
        if ("connect".equalsIgnoreCase(publisher.trim())) {
            throw new NotReplayableException("In Connect mode (outbox.publisher=connect) Kafka Connect publishes only"
                    + " what is appended, so a replayed event would never be sent; replay after switching to polling"
                    + " or CDC mode (docs/connect.md)");
        }
    }

    private void audit(String actor, String action, UUID eventId, String filter, OffsetDateTime cutoff,
                       int matched, int replayed, OffsetDateTime at) {
        update("""
                INSERT INTO replay_audit (at, actor, action, event_id, filter, cutoff, matched, replayed)
                VALUES (?, ?, ?, ?, CAST(? AS jsonb), ?, ?, ?)""",
                Arrays.asList(at, actor, action, eventId, filter, cutoff, matched, replayed));
    }

    private String status(UUID eventId) {
        try (Connection connection = dataSources.transactional().getConnection();
             PreparedStatement query = bind(connection.prepareStatement("SELECT status FROM outbox_event_state WHERE event_id = ?"),
                     List.of(eventId));
             ResultSet row = query.executeQuery()) {
            return row.next() ? row.getString(1) : null;
        } catch (SQLException failed) {
            throw new IllegalStateException("Reading the status of " + eventId + " failed", failed);
        }
    }

    private long count(String sql, List<Object> parameters) {
        try (Connection connection = dataSources.transactional().getConnection();
             PreparedStatement query = bind(connection.prepareStatement(sql), parameters);
             ResultSet row = query.executeQuery()) {
            row.next();
            return row.getLong(1);
        } catch (SQLException failed) {
            throw new IllegalStateException("Counting dead letters failed", failed);
        }
    }

    private int update(String sql, List<Object> parameters) {
        try (Connection connection = dataSources.transactional().getConnection();
             PreparedStatement update = bind(connection.prepareStatement(sql), parameters)) {
            return update.executeUpdate();
        } catch (SQLException failed) {
            throw new IllegalStateException("Replaying failed", failed);
        }
    }

    private static PreparedStatement bind(PreparedStatement statement, List<Object> parameters) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            statement.setObject(i + 1, parameters.get(i));
        }
        return statement;
    }
}
