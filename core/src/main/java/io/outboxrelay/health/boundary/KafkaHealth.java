package io.outboxrelay.health.boundary;

import io.outboxrelay.kafka.boundary.KafkaAdmin;
import io.outboxrelay.kafka.boundary.KafkaAdmin.ClusterInfo;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * {@code GET /outbox/health/kafka}: a round trip to the Kafka cluster, shaped like a MicroProfile
 * health check (200 UP with the cluster id and the security protocol the server's clients use, 503
 * DOWN). Deliberately not part of {@code /health/ready}:
 * appends need only the database, and an orchestrator that took every server out of its load balancer
 * while Kafka is away would refuse exactly the writes the outbox exists to absorb. Alert on this, or on
 * {@code outbox_relay_outage}; do not route traffic by it.
 */
@WebServlet("/outbox/health/kafka")
public class KafkaHealth extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    @Inject
    transient KafkaAdmin kafka;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        JsonObjectBuilder data = Json.createObjectBuilder();
        boolean up = false;
        try {
            ClusterInfo cluster = kafka.describeCluster(TIMEOUT);
            data.add("clusterId", cluster.clusterId()).add("brokers", cluster.brokers())
                    .add("securityProtocol", kafka.securityProtocol());
            up = true;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            data.add("error", "interrupted");
        } catch (ExecutionException | TimeoutException | RuntimeException unreachable) {
            data.add("error", "no answer within " + TIMEOUT.toSeconds() + " s");
        }
        response.setStatus(up ? HttpServletResponse.SC_OK : HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.getWriter().write(Json.createObjectBuilder()
                .add("name", "kafka").add("status", up ? "UP" : "DOWN").add("data", data).build().toString());
    }
}
