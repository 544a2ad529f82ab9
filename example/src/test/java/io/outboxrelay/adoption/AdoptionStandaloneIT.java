package io.outboxrelay.adoption;

import io.outboxrelay.support.Kafka;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Topology (b): the payments application only appends ({@code outbox.relay.enabled=false}) on one Liberty
 * server; the Outbox Relay server WAR, on another Liberty server against the same database and Kafka,
 * publishes its events and shows them in its console's API. The relay server polls only every ten minutes,
 * far beyond this test's patience, so an event can reach Kafka in time only through the cross-server
 * wake-up: the appending server's NOTIFY after its commit, the relay's LISTEN. The two servers share
 * nothing but the database and Kafka. The payments WAR here also embeds the console's jar: the console
 * answers on its own paths, and its resources do not serve under the application's own REST path.
 */
class AdoptionStandaloneIT {

    private static final String TOPIC = Kafka.uniqueTopic("adoption-standalone-payments");
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final Duration RELAY_POLL = Duration.ofMinutes(10);
    private static AdoptionServer applications;
    private static AdoptionServer relayServer;

    @BeforeAll
    static void startTheAppendOnlyApplicationAndTheRelayServer() throws Exception {
        Kafka.createTopic(TOPIC, 3);
        applications = AdoptionServer.start("outbox-adoption-applications", "adoption_standalone", true, List.of(
                new AdoptionServer.App("payments", AdoptionServer.paymentsWar(true), "/payments", Map.of(
                        "outbox.relay.enabled", "false",
                        "outbox.retention.enabled", "false",
                        "outbox.topic.Payment", TOPIC,
                        "mp.messaging.incoming.ledger.topic", TOPIC,
                        "mp.messaging.incoming.ledger.group.id", "ledger-" + TOPIC))));
        relayServer = AdoptionServer.start("outbox-adoption-relay", "adoption_standalone", false, true, List.of(
                new AdoptionServer.App("relay", AdoptionServer.serverWar(), "/relay", Map.of(
                        "outbox.relay.poll-interval-ms", String.valueOf(RELAY_POLL.toMillis())))));
    }

    @AfterAll
    static void stop() throws Exception {
        for (AdoptionServer server : new AdoptionServer[] {relayServer, applications}) {
            if (server != null) {
                server.close();
            }
        }
    }

    @Test
    void theRelayServerPublishesAnotherApplicationsAppendWithoutWaitingForItsPoll() throws Exception {
        assertThat(RELAY_POLL).as("only a wake-up can beat the poll within the test's patience").isGreaterThan(PATIENCE.multipliedBy(10));
        String payer = "standalone-" + UUID.randomUUID();
        Instant committed = Instant.now();
        HttpResponse<String> paid = send(HttpRequest.newBuilder(URI.create(applications.baseUrl() + "/payments/api/payments"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"payer\": \"" + payer + "\", \"amount\": 3.20}")));
        assertThat(paid.statusCode()).as(paid.body()).isEqualTo(201);
        String eventId = Json.createReader(new StringReader(paid.body())).readObject().getString("eventId");

        Awaitility.await("the relay server publishes the payment's event").atMost(PATIENCE).pollInterval(Duration.ofMillis(50))
                .until(() -> applications.count("SELECT count(*) FROM outbox_event_state WHERE event_id = ?::uuid AND status = 'SENT'",
                        eventId) == 1);
        Duration published = Duration.between(committed, Instant.now());
        assertThat(Kafka.consumeUntil(TOPIC, "the payment's event",
                records -> records.stream().anyMatch(record -> eventId.equals(Kafka.header(record, "ce_id"))))).isNotEmpty();

        String operator = "Basic " + Base64.getEncoder().encodeToString(
                ("operator:" + System.getProperty("it.operator.password")).getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> detail = send(HttpRequest.newBuilder(URI.create(relayServer.baseUrl() + "/relay/outbox/api/events/" + eventId))
                .header("Authorization", operator));
        assertThat(detail.statusCode()).as("the standalone console's API knows the event: " + detail.body()).isEqualTo(200);
        JsonObject event = Json.createReader(new StringReader(detail.body())).readObject();
        assertThat(event.getString("status")).isEqualTo("SENT");
        assertThat(event.getString("topic")).isEqualTo(TOPIC);

        HttpResponse<String> embedded = send(HttpRequest.newBuilder(
                URI.create(applications.baseUrl() + "/payments/outbox/api/events/" + eventId)).header("Authorization", operator));
        assertThat(embedded.statusCode()).as("the console embedded in the payments WAR, on its own path: " + embedded.body())
                .isEqualTo(200);
        HttpResponse<String> underTheHostsApi = send(HttpRequest.newBuilder(
                URI.create(applications.baseUrl() + "/payments/api/events/" + eventId)).header("Authorization", operator));
        assertThat(underTheHostsApi.statusCode())
                .as("the host's Application lists no classes, so it scans the console's resources too; they do not"
                        + " serve there (the container sends the caller to sign in, or the resource answers 404)")
                .isIn(302, 401, 403, 404);
        assertThat(underTheHostsApi.body()).doesNotContain(eventId);
        System.out.println("relay server: another server's payment from request to SENT in " + published.toMillis() + " ms (poll " + RELAY_POLL + ")");
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
