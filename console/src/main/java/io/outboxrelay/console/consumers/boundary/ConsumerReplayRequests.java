package io.outboxrelay.console.consumers.boundary;

import io.outboxrelay.console.consumers.control.ConsumerDeadLetterCriteria;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterFilter;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterNotFoundException;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterNotReplayableException;
import io.outboxrelay.console.consumers.entity.ConsumerReplayResult;
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
import java.util.logging.Logger;

/**
 * Asks for replays of consumer dead letters: the rows become REPLAY_REQUESTED, and a server that runs the
 * group's handler replays each to that group alone (see the core's {@code ConsumerReplays}). Each request
 * and its audit row commit in one transaction, on the JTA data source.
 */
@ApplicationScoped
@Transactional
public class ConsumerReplayRequests {

    private static final Logger LOG = Logger.getLogger(ConsumerReplayRequests.class.getName());

    private static final String REQUEST = "SET status = 'REPLAY_REQUESTED', replay_count = replay_count + 1, updated_at = ?";

    @Inject
    OutboxDataSources dataSources;

    @Inject
    @OutboxClock
    Clock clock;

    @Inject
    @ConfigProperty(name = "outbox.replay.max-per-request", defaultValue = "1000")
    int maxPerRequest;

    private final Jsonb jsonb = JsonbBuilder.create();

    /** Asks for the replay of one dead letter; returns its consumer group. */
    public String replayOne(long id, String actor) {
        OffsetDateTime now = OffsetDateTime.now(clock);
        String group;
        UUID eventId;
        try (Connection connection = dataSources.transactional().getConnection();
             PreparedStatement update = connection.prepareStatement("UPDATE consumer_dead_letter " + REQUEST
                     + " WHERE id = ? AND status = 'DEAD_LETTERED' RETURNING consumer_group, event_id")) {
            update.setObject(1, now);
            update.setLong(2, id);
            try (ResultSet row = update.executeQuery()) {
                if (!row.next()) {
                    throw notReplayable(id);
                }
                group = row.getString(1);
                eventId = (UUID) row.getObject(2);
            }
        } catch (SQLException failed) {
            throw new IllegalStateException("Asking for a consumer replay failed", failed);
        }
        audit(actor, "CONSUMER_REPLAY_ONE", group, eventId, null, null, 1, 1, now);
        LOG.info(() -> "Consumer dead letter " + id + " of " + group + ": replay asked by " + actor);
        return group;
    }

    private RuntimeException notReplayable(long id) {
        List<String> status = strings("SELECT status FROM consumer_dead_letter WHERE id = ?", List.of(id));
        if (status.isEmpty()) {
            return new ConsumerDeadLetterNotFoundException(id);
        }
        return new ConsumerDeadLetterNotReplayableException("Consumer dead letter " + id + " is " + status.get(0)
                + "; only DEAD_LETTERED ones can be replayed");
    }

    /**
     * Asks for the replay of the dead letters waiting for an operator that match {@code filter} and failed
     * last before the request started (those that fail while it runs are not swept in), at most
     * {@code outbox.replay.max-per-request}, oldest first. A dry run only counts.
     */
    public ConsumerReplayResult replayMatching(ConsumerDeadLetterFilter filter, boolean dryRun, String actor) {
        OffsetDateTime cutoff = OffsetDateTime.now(clock);
        ConsumerDeadLetterCriteria criteria = ConsumerDeadLetterCriteria.of(filter.withStatus("DEAD_LETTERED"))
                .and("updated_at <= ?", cutoff);
        int matched = Integer.parseInt(strings("SELECT count(*)::text FROM consumer_dead_letter WHERE " + criteria.where(),
                criteria.parameters()).get(0));
        if (dryRun) {
            return new ConsumerReplayResult(true, matched, 0, cutoff);
        }
        List<Object> parameters = new ArrayList<>(List.of(cutoff));
        parameters.addAll(criteria.parameters());
        parameters.add(maxPerRequest);
        int replayed = strings("UPDATE consumer_dead_letter " + REQUEST + " WHERE id IN (SELECT id FROM consumer_dead_letter"
                + " WHERE " + criteria.where() + " ORDER BY id LIMIT ? FOR UPDATE) RETURNING consumer_group", parameters).size();
        String filterJson = jsonb.toJson(filter);
        audit(actor, "CONSUMER_REPLAY_BULK", filter.consumerGroup(), filter.eventId(), filterJson, cutoff, matched, replayed, cutoff);
        LOG.info(() -> actor + " asked to replay " + replayed + " of " + matched + " consumer dead letter(s) matching "
                + filterJson + " last changed before " + cutoff);
        return new ConsumerReplayResult(false, matched, replayed, cutoff);
    }

    private void audit(String actor, String action, String group, UUID eventId, String filter, OffsetDateTime cutoff,
                       int matched, int replayed, OffsetDateTime at) {
        strings("""
                INSERT INTO replay_audit (at, actor, action, consumer_group, event_id, filter, cutoff, matched, replayed)
                VALUES (?, ?, ?, ?, ?, CAST(? AS jsonb), ?, ?, ?) RETURNING action""",
                Arrays.asList(at, actor, action, group, eventId, filter, cutoff, matched, replayed));
    }

    /** Runs a statement that returns one text column and collects it. */
    private List<String> strings(String sql, List<Object> parameters) {
        try (Connection connection = dataSources.transactional().getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, parameters.get(i));
            }
            List<String> values = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
            return values;
        } catch (SQLException failed) {
            throw new IllegalStateException("Asking for a consumer replay failed", failed);
        }
    }
}
