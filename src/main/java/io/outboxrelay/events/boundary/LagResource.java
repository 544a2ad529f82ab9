package io.outboxrelay.events.boundary;

import io.outboxrelay.events.control.ConsumerLag;
import io.outboxrelay.events.control.EventQueries;
import io.outboxrelay.events.control.PublishRate;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How far behind things are: rows per status, the age of the oldest event not yet published,
 * this server's publish rate, and each consumer group's lag per partition.
 */
@Path("lag")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"operator", "viewer"})
public class LagResource {

    @Inject
    EventQueries queries;

    @Inject
    PublishRate publishRate;

    @Inject
    ConsumerLag consumerLag;

    @GET
    public Map<String, Object> lag() throws SQLException {
        Map<String, Object> lag = new LinkedHashMap<>();
        lag.put("rowsByStatus", queries.rowsByStatus());
        lag.put("oldestPendingAgeSeconds", queries.oldestPendingAgeSeconds());
        lag.put("publishRatePerSecond", publishRate.perSecond());
        try {
            List<ConsumerLag.PartitionLag> consumers = consumerLag.all();
            lag.put("consumerGroups", consumers);
        } catch (Exception kafkaUnavailable) {
            lag.put("consumerGroups", List.of());
            lag.put("consumerGroupsError", "Kafka did not answer: " + kafkaUnavailable.getClass().getSimpleName());
        }
        return lag;
    }
}
