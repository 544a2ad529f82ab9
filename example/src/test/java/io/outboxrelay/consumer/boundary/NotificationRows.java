package io.outboxrelay.consumer.boundary;

import io.outboxrelay.consumer.entity.IncomingEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

/** A handler's business effect for in-server tests: one notification row, in the caller's transaction. */
@ApplicationScoped
public class NotificationRows {

    @PersistenceContext
    EntityManager em;

    @Transactional(Transactional.TxType.MANDATORY)
    public void insert(IncomingEvent event) {
        em.createNativeQuery("INSERT INTO notification (event_id, order_id, kind) VALUES (?1, ?2, ?3)")
                .setParameter(1, event.eventId())
                .setParameter(2, event.aggregateId())
                .setParameter(3, event.eventType())
                .executeUpdate();
    }
}
