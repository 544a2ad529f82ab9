package io.outboxrelay.kafka.boundary;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeClusterResult;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** One long-lived admin client for questions about the cluster. */
@ApplicationScoped
public class KafkaAdmin {

    /** What a round trip to the cluster learned. */
    public record ClusterInfo(String clusterId, int brokers) {
    }

    @Inject
    KafkaSettings settings;

    private Admin admin;
    private String securityProtocol;

    /** Asks the cluster who it is: a real round trip, bounded by {@code timeout}. */
    public ClusterInfo describeCluster(Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
        int millis = (int) timeout.toMillis();
        DescribeClusterResult cluster = admin().describeCluster(new DescribeClusterOptions().timeoutMs(millis));
        String clusterId = cluster.clusterId().get(millis, TimeUnit.MILLISECONDS);
        int brokers = cluster.nodes().get(millis, TimeUnit.MILLISECONDS).size();
        return new ClusterInfo(clusterId, brokers);
    }

    /** The shared admin client, for questions this class does not answer itself. */
    public synchronized Admin admin() {
        if (admin == null) {
            Map<String, Object> properties = settings.clientProperties("admin");
            properties.putIfAbsent("request.timeout.ms", 10_000);
            properties.putIfAbsent("default.api.timeout.ms", 15_000);
            securityProtocol = String.valueOf(properties.getOrDefault("security.protocol", "PLAINTEXT"));
            admin = Admin.create(properties);
        }
        return admin;
    }

    /** The security protocol the server's clients reach the cluster with, as the admin client was configured. */
    public synchronized String securityProtocol() {
        admin();
        return securityProtocol;
    }

    @PreDestroy
    synchronized void close() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
    }
}
