package io.outboxrelay.relay.boundary;

import io.outboxrelay.kafka.boundary.KafkaSettings;
import io.outboxrelay.time.Backoff;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Every relay knob, read once from MicroProfile Config; defaults are documented in docs/configuration.md. */
@ApplicationScoped
public class RelaySettings {

    public enum Ordering { AGGREGATE, NONE }

    /**
     * Who publishes fresh events: the relay's poll, a change stream from the write-ahead log (the cdc module), or a
     * Kafka Connect worker outside the server (the connect module's connector), whose records the relay only tracks.
     */
    public enum Publisher { POLLING, CDC, CONNECT }

    static final String PRODUCER_PREFIX = "outbox.relay.producer.";

    @Inject @ConfigProperty(name = "outbox.relay.enabled", defaultValue = "true")
    boolean enabled;

    @Inject @ConfigProperty(name = "outbox.publisher", defaultValue = "polling")
    String publisher;

    @Inject @ConfigProperty(name = "outbox.cdc.handover-ms", defaultValue = "30000")
    long handoverMs;

    @Inject @ConfigProperty(name = "outbox.cdc.poll-interval-ms", defaultValue = "5000")
    long cdcPollIntervalMs;

    @Inject @ConfigProperty(name = "outbox.connect.topics", defaultValue = ".*\\.events")
    String connectTopics;

    @Inject @ConfigProperty(name = "outbox.connect.group-id", defaultValue = "outbox-relay-connect-progress")
    String connectGroupId;

    @Inject @ConfigProperty(name = "outbox.relay.workers", defaultValue = "1")
    int workers;

    @Inject @ConfigProperty(name = "outbox.relay.batch-size", defaultValue = "2000")
    int batchSize;

    @Inject @ConfigProperty(name = "outbox.relay.pipelined", defaultValue = "true")
    boolean pipelined;

    @Inject @ConfigProperty(name = "outbox.relay.gather-ms", defaultValue = "0")
    long gatherMs;

    @Inject @ConfigProperty(name = "outbox.relay.poll-interval-ms", defaultValue = "500")
    long pollIntervalMs;

    @Inject @ConfigProperty(name = "outbox.relay.listen", defaultValue = "true")
    boolean listen;

    @Inject @ConfigProperty(name = "outbox.relay.lease-ms", defaultValue = "60000")
    long leaseMs;

    @Inject @ConfigProperty(name = "outbox.relay.send-timeout-ms", defaultValue = "30000")
    long sendTimeoutMs;

    @Inject @ConfigProperty(name = "outbox.relay.max-attempts", defaultValue = "10")
    int maxAttempts;

    @Inject @ConfigProperty(name = "outbox.relay.backoff.base-ms", defaultValue = "1000")
    long backoffBaseMs;

    @Inject @ConfigProperty(name = "outbox.relay.backoff.cap-ms", defaultValue = "300000")
    long backoffCapMs;

    @Inject @ConfigProperty(name = "outbox.relay.backoff.jitter", defaultValue = "0.2")
    double backoffJitter;

    @Inject @ConfigProperty(name = "outbox.relay.outage.backoff.base-ms", defaultValue = "1000")
    long outageBaseMs;

    @Inject @ConfigProperty(name = "outbox.relay.outage.backoff.cap-ms", defaultValue = "30000")
    long outageCapMs;

    @Inject @ConfigProperty(name = "outbox.relay.ordering", defaultValue = "aggregate")
    String ordering;

    @Inject @ConfigProperty(name = "outbox.relay.ordering.block-on-dead", defaultValue = "false")
    boolean blockOnDead;

    @Inject @ConfigProperty(name = "outbox.relay.ordering.events-per-aggregate", defaultValue = "4")
    int eventsPerAggregate;

    @Inject @ConfigProperty(name = "outbox.cloudevents.source", defaultValue = "/outbox-relay")
    String cloudEventsSource;

    @Inject @ConfigProperty(name = "outbox.relay.instance-id")
    Optional<String> configuredInstanceId;

    private String instanceId;

    @Inject
    Config config;

    public boolean enabled() { return enabled; }
    public int workers() { return Math.max(1, workers); }
    public int batchSize() { return Math.max(1, batchSize); }
    public boolean pipelined() { return pipelined; }

    /**
     * How long a worker waits, after a batch that found no backlog (under half the batch size), before it claims
     * again, so that the next claim takes along what commits meanwhile: fewer, larger rounds for a steady stream,
     * each event later by up to this long. None by default.
     */
    public Duration gather() { return Duration.ofMillis(Math.max(0, gatherMs)); }

    /**
     * Whether the relay wakes for appends (this server's, and other servers' through LISTEN/NOTIFY). Not in CDC
     * mode: the change stream publishes fresh events, and the relay only takes what it hands over.
     */
    public boolean listen() {
        return listen && publisher() == Publisher.POLLING;
    }

    /** How often the relay looks for due events: in CDC mode it is the safety net, and looks less often. */
    public Duration pollInterval() {
        return Duration.ofMillis(publisher() == Publisher.CDC ? Math.max(pollIntervalMs, cdcPollIntervalMs) : pollIntervalMs);
    }

    public Publisher publisher() {
        try {
            return Publisher.valueOf(publisher.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            throw new IllegalStateException("outbox.publisher is polling, cdc or connect, not '" + publisher + "'",
                    unknown);
        }
    }

    /** Connect mode: the topics the connector publishes to, whose records tell which events became SENT where. */
    public Pattern connectTopics() {
        try {
            return Pattern.compile(connectTopics.trim());
        } catch (PatternSyntaxException invalid) {
            throw new IllegalStateException("outbox.connect.topics is not a regular expression: " + invalid.getMessage(),
                    invalid);
        }
    }

    /** Connect mode: the consumer group that follows the connector's records (one per database, shared by servers). */
    public String connectGroupId() {
        return connectGroupId.trim();
    }

    /**
     * How long an event stays due before the polling relay takes it: none when polling; in CDC mode the time the
     * change stream has to publish it first (what the stream hands over, a retry, a replay, a row it never saw).
     */
    public Duration handover() {
        return publisher() == Publisher.CDC ? Duration.ofMillis(Math.max(0, handoverMs)) : Duration.ZERO;
    }
    public Duration lease() { return Duration.ofMillis(leaseMs); }
    public Duration sendTimeout() { return Duration.ofMillis(sendTimeoutMs); }
    public String cloudEventsSource() { return cloudEventsSource; }
    public boolean blockOnDead() { return blockOnDead; }

    /**
     * With aggregate ordering, the most events of one aggregate a batch takes: consecutive ones, sent one after
     * another, each once Kafka acknowledged the one before it.
     */
    public int eventsPerAggregate() { return Math.max(1, eventsPerAggregate); }

    public Ordering ordering() {
        return Ordering.valueOf(ordering.trim().toUpperCase(java.util.Locale.ROOT));
    }

    public Backoff retryBackoff() {
        return new Backoff(Duration.ofMillis(backoffBaseMs), Duration.ofMillis(backoffCapMs), backoffJitter);
    }

    public Backoff outageBackoff() {
        return new Backoff(Duration.ofMillis(outageBaseMs), Duration.ofMillis(outageCapMs), 0.1);
    }

    public int maxAttempts() {
        return Math.max(1, maxAttempts);
    }

    /** Identifies this server's leases; unique per server process unless configured. */
    public synchronized String instanceId() {
        if (instanceId == null) {
            instanceId = configuredInstanceId.filter(id -> !id.isBlank()).orElseGet(() ->
                    ManagementFactory.getRuntimeMXBean().getName() + "-" + UUID.randomUUID().toString().substring(0, 8));
        }
        return instanceId;
    }

    /** Producer properties: safe defaults, then every {@code outbox.relay.producer.*} key passed through. */
    public Map<String, Object> producerOverrides() {
        return new HashMap<>(KafkaSettings.withPrefix(config, PRODUCER_PREFIX));
    }
}
