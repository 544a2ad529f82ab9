package io.outboxrelay.lag.control;

import io.outboxrelay.database.boundary.OutboxDataSources;
import io.outboxrelay.lag.entity.SlotLag;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The CDC mode's slot ({@code outbox.cdc.slot}), looked at in every mode: a slot left behind after switching
 * back to polling is the one that fills the disk.
 */
@ApplicationScoped
public class ReplicationSlots {

    private static final String SLOT = """
            SELECT active, coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn), 0)::bigint AS retained
              FROM pg_replication_slots WHERE slot_name = ?""";

    @Inject
    @ConfigProperty(name = "outbox.cdc.slot", defaultValue = "outbox_relay")
    String slot;

    @Inject
    OutboxDataSources dataSources;

    public SlotLag lag() throws SQLException {
        try (Connection connection = dataSources.nonTransactional().getConnection();
             PreparedStatement query = connection.prepareStatement(SLOT)) {
            query.setString(1, slot);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? new SlotLag(slot, true, row.getBoolean("active"), row.getLong("retained"))
                        : SlotLag.absent(slot);
            }
        }
    }
}
