package io.outboxrelay.consumer.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

import java.util.UUID;

/** The dedup log. Joins the handler's transaction, so the mark and the effect commit together. */
@ApplicationScoped
public class ConsumedEvents {

    @PersistenceContext
    EntityManager em;

    /**
     * Records that {@code group} handles {@code eventId}; false if it already did. One atomic
     * insert decides (never a check, then an insert): of two concurrent transactions with the
     * same event id, the second waits for the first and then finds the key taken.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public boolean markConsumed(String group, UUID eventId, String eventType) {
        return em.createNativeQuery("""
                        INSERT INTO consumed_event (consumer_group, event_id, event_type, consumed_at)
                        VALUES (?1, ?2, ?3, now())
                        ON CONFLICT (consumer_group, event_id) DO NOTHING""")
                .setParameter(1, group)
                .setParameter(2, eventId)
                .setParameter(3, eventType)
                .executeUpdate() == 1;
    }
}
