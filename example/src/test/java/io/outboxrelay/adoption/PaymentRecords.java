package io.outboxrelay.adoption;

import io.outboxrelay.support.Kafka;
import jakarta.json.Json;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The payments application's API and the documented record of a payment's event, asserted alike whoever published
 * it (polling, CDC or Kafka Connect).
 */
final class PaymentRecords {

    private PaymentRecords() {
    }

    /** A payment through the payments application on {@code server}; it appends and then refuses when asked to. */
    static HttpResponse<String> pay(AdoptionServer server, String payer, boolean refuseAfterAppend) throws Exception {
        String body = "{\"payer\": \"%s\", \"amount\": 12.50, \"refuseAfterAppend\": %s}".formatted(payer, refuseAfterAppend);
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(URI.create(server.baseUrl() + "/payments/api/payments"))
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A request to a server's console API as the local test operator (who may replay). */
    static HttpResponse<String> asOperator(HttpRequest.Builder request) throws Exception {
        String credentials = Base64.getEncoder().encodeToString(
                ("operator:" + System.getProperty("it.operator.password")).getBytes(StandardCharsets.UTF_8));
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                .send(request.header("Authorization", "Basic " + credentials).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The record of {@code eventId}, read from the start of {@code topic} until it is there. */
    static ConsumerRecord<String, String> recordOf(String topic, String eventId) {
        return Kafka.consumeUntil(topic, "event " + eventId,
                        consumed -> consumed.stream().anyMatch(record -> eventId.equals(Kafka.header(record, "ce_id"))))
                .stream().filter(record -> eventId.equals(Kafka.header(record, "ce_id"))).findFirst().orElseThrow();
    }

    /** Key, CloudEvents headers, Debezium-style headers and payload of the payment {@code paymentId} by {@code payer}. */
    static void assertDocumentedRecord(ConsumerRecord<String, String> record, String paymentId, String eventId,
                                       String payer) {
        assertThat(record.key()).isEqualTo(paymentId);
        assertThat(Kafka.header(record, "ce_specversion")).isEqualTo("1.0");
        assertThat(Kafka.header(record, "ce_id")).isEqualTo(eventId);
        assertThat(Kafka.header(record, "ce_type")).isEqualTo("PaymentReceived");
        assertThat(Kafka.header(record, "ce_subject")).isEqualTo(paymentId);
        assertThat(Kafka.header(record, "ce_source")).isNotBlank();
        assertThat(Kafka.header(record, "ce_time")).isNotBlank();
        assertThat(Kafka.header(record, "content-type")).isEqualTo("application/json");
        assertThat(Kafka.header(record, "id")).isEqualTo(eventId);
        assertThat(Kafka.header(record, "aggregate_type")).isEqualTo("Payment");
        assertThat(Kafka.header(record, "event_version")).isEqualTo("1");
        assertThat(Json.createReader(new StringReader(record.value())).readObject().getString("payer")).isEqualTo(payer);
    }
}
