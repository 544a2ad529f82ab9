package io.outboxrelay.relay.control;

import io.outboxrelay.database.boundary.OutboxDataSources;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.logging.Logger;

/**
 * This server's claim on its relay instance id: a PostgreSQL session advisory lock, held on a connection of its
 * own for as long as the relay runs. Leases are guarded by their owner's name, so two live relays with one
 * instance id (a copied configuration, say) would each take the other's leases for their own, and one could mark
 * SENT what the other is still sending. The second to start does not relay: it asks again (at most once a second)
 * and starts once the first has gone. A database restart ends the session and the lock with it; the next round
 * takes it again.
 */
@ApplicationScoped
public class InstanceClaim {

    private static final Logger LOG = Logger.getLogger(InstanceClaim.class.getName());
    /** The first key of the lock: Outbox Relay's own space among an application's advisory locks. */
    static final int LOCK_SPACE = 0x4f52_454c; // "OREL"
    private static final long RECHECK_NANOS = 1_000_000_000L;

    @Inject
    OutboxDataSources dataSources;

    private Connection holder;
    private String heldFor;
    private long checkedAt;
    private boolean refused;

    /**
     * True while this server holds {@code instanceId}; false while another live relay does. Throws when the
     * database cannot be asked (the round would fail anyway).
     */
    public synchronized boolean held(String instanceId) throws SQLException {
        long now = System.nanoTime();
        if (holder != null && now - checkedAt < RECHECK_NANOS) {
            return true;
        }
        checkedAt = now;
        if (holder != null && holder.isValid(2)) {
            return true;
        }
        forget(); // its session ended, and the lock with it
        Connection candidate = dataSources.nonTransactional().getConnection();
        boolean locked;
        try (PreparedStatement lock = candidate.prepareStatement("SELECT pg_try_advisory_lock(?, hashtext(?))")) {
            lock.setInt(1, LOCK_SPACE);
            lock.setString(2, instanceId);
            try (ResultSet result = lock.executeQuery()) {
                result.next();
                locked = result.getBoolean(1);
            }
        } catch (SQLException failed) {
            candidate.close();
            throw failed;
        }
        if (!locked) {
            candidate.close();
            if (!refused) {
                LOG.severe(() -> "Another live relay holds the instance id " + instanceId + " (outbox.relay.instance-id):"
                        + " this server does not relay until it has gone. Give every server an id of its own.");
                refused = true;
            }
            return false;
        }
        holder = candidate;
        heldFor = instanceId;
        if (refused) {
            LOG.info(() -> "This server now holds the instance id " + instanceId + " and relays");
            refused = false;
        }
        return true;
    }

    /** Lets go of the instance id (the connection goes back to its pool without the lock). */
    @PreDestroy
    public synchronized void release() {
        if (holder == null) {
            return;
        }
        try (PreparedStatement unlock = holder.prepareStatement("SELECT pg_advisory_unlock(?, hashtext(?))")) {
            unlock.setInt(1, LOCK_SPACE);
            unlock.setString(2, heldFor);
            unlock.execute();
        } catch (SQLException gone) {
            // the session is gone, and the lock with it
        }
        forget();
    }

    private void forget() {
        if (holder != null) {
            try {
                holder.close();
            } catch (SQLException ignored) {
                // nothing left to release
            }
        }
        holder = null;
        heldFor = null;
    }
}
