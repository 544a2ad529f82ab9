package io.outboxrelay.health.boundary;

import io.outboxrelay.kafka.boundary.KafkaAdmin;
import io.outboxrelay.kafka.boundary.KafkaAdmin.ClusterInfo;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** Ready only when a round trip to the Kafka cluster succeeds. */
@Readiness
@ApplicationScoped
public class KafkaReadiness implements HealthCheck {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    @Inject
    KafkaAdmin kafka;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("kafka");
        try {
            ClusterInfo cluster = kafka.describeCluster(TIMEOUT);
            return response.up()
                    .withData("clusterId", cluster.clusterId())
                    .withData("brokers", cluster.brokers())
                    .build();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return response.down().withData("error", "interrupted").build();
        } catch (ExecutionException | TimeoutException | RuntimeException unreachable) {
            return response.down().withData("error", "no answer within " + TIMEOUT.toSeconds() + " s").build();
        }
    }
}
