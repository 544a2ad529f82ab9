package io.outboxrelay.events.boundary;

import io.outboxrelay.events.control.EventCriteria;
import io.outboxrelay.events.entity.BulkReplayResult;
import io.outboxrelay.events.entity.EventFilter;
import io.outboxrelay.events.entity.EventNotFoundException;
import io.outboxrelay.events.entity.NotReplayableException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.Query;
import jakarta.transaction.Transactional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * Sends dead letters (DLT, DEAD) back to the relay: PENDING, due now, attempts reset,
 * replay_count + 1. Each replay and its audit row commit in one transaction.
 */
@ApplicationScoped
@Transactional
public class Replays {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(Replays.class.getName());

    private static final String REPLAY_SET = """
            SET status = 'PENDING', attempts = 0, next_attempt_at = ?, first_failed_at = NULL,
                replay_count = replay_count + 1, lease_owner = NULL, lease_until = NULL, updated_at = ?""";

    @PersistenceContext
    EntityManager em;

    @Inject
    Clock clock;

    @Inject
    @ConfigProperty(name = "outbox.replay.max-per-request", defaultValue = "1000")
    int maxPerRequest;

    private final Jsonb jsonb = JsonbBuilder.create();

    public int replayOne(UUID eventId, String actor) {
        OffsetDateTime now = OffsetDateTime.now(clock);
        int replayed = bind(em.createNativeQuery("UPDATE outbox_event " + REPLAY_SET
                + " WHERE event_id = ? AND status IN ('DLT', 'DEAD')"), List.of(now, now, eventId)).executeUpdate();
        if (replayed == 0) {
            List<?> status = bind(em.createNativeQuery("SELECT status FROM outbox_event WHERE event_id = ?"),
                    List.of(eventId)).getResultList();
            if (status.isEmpty()) {
                throw new EventNotFoundException(eventId);
            }
            throw new NotReplayableException("Event " + eventId + " is " + status.get(0)
                    + "; only DLT and DEAD events can be replayed");
        }
        audit(actor, "REPLAY_ONE", eventId, null, null, 1, 1, now);
        LOG.info(() -> "Event " + eventId + " replayed by " + actor + ": PENDING again");
        return replayed;
    }

    /**
     * Replays the dead letters matching {@code filter} (statuses limited to DLT and DEAD) that
     * were last changed before {@code cutoff}: events that fail while the replay runs are not
     * swept up in it. At most {@code outbox.replay.max-per-request}, oldest first.
     */
    public BulkReplayResult replayMatching(EventFilter filter, boolean dryRun, String actor) {
        OffsetDateTime cutoff = OffsetDateTime.now(clock);
        EventCriteria criteria = EventCriteria.of(filter).and("updated_at <= ?", cutoff);
        int matched = ((Number) bind(em.createNativeQuery("SELECT count(*) FROM outbox_event WHERE " + criteria.where()),
                criteria.parameters()).getSingleResult()).intValue();
        if (dryRun) {
            return new BulkReplayResult(true, matched, 0, cutoff);
        }
        OffsetDateTime now = OffsetDateTime.now(clock);
        List<Object> parameters = new java.util.ArrayList<>(List.of(now, now));
        parameters.addAll(criteria.parameters());
        parameters.add(maxPerRequest);
        int replayed = bind(em.createNativeQuery("UPDATE outbox_event " + REPLAY_SET + " WHERE id IN ("
                + "SELECT id FROM outbox_event WHERE " + criteria.where() + " ORDER BY id LIMIT ? FOR UPDATE)"),
                parameters).executeUpdate();
        String filterJson = jsonb.toJson(filter);
        audit(actor, "REPLAY_BULK", null, filterJson, cutoff, matched, replayed, now);
        LOG.info(() -> actor + " replayed " + replayed + " of " + matched + " dead letter(s) matching " + filterJson
                + " last changed before " + cutoff);
        return new BulkReplayResult(false, matched, replayed, cutoff);
    }

    private void audit(String actor, String action, UUID eventId, String filter, OffsetDateTime cutoff,
                       int matched, int replayed, OffsetDateTime at) {
        Query insert = em.createNativeQuery("""
                INSERT INTO replay_audit (at, actor, action, event_id, filter, cutoff, matched, replayed)
                VALUES (?, ?, ?, CAST(? AS uuid), CAST(? AS jsonb), CAST(? AS timestamptz), ?, ?)""");
        insert.setParameter(1, at);
        insert.setParameter(2, actor);
        insert.setParameter(3, action);
        insert.setParameter(4, eventId == null ? null : eventId.toString());
        insert.setParameter(5, filter);
        insert.setParameter(6, cutoff == null ? null : cutoff.toString());
        insert.setParameter(7, matched);
        insert.setParameter(8, replayed);
        insert.executeUpdate();
    }

    private static Query bind(Query query, List<Object> parameters) {
        for (int i = 0; i < parameters.size(); i++) {
            query.setParameter(i + 1, parameters.get(i));
        }
        return query;
    }
}
