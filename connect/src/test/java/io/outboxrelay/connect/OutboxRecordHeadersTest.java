package io.outboxrelay.connect;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OutboxRecordHeadersTest {

    private static final String EVENT = "0190f3a2-7c1e-7b2a-9d4e-5f6a7b8c9d0e";

    @Test
    void aRoutedOutboxRecordGetsThePollingRelaysHeadersInTheirOrderAndKeepsKeyValueAndTopic() {
        SourceRecord routed = routed("""
                {"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "correlation-id": "c-1"}""");

        SourceRecord record = transform("/payments").apply(routed);

        assertThat(record.topic()).isEqualTo("payment.events");
        assertThat(record.key()).isEqualTo("payment-7");
        assertThat(record.value()).isEqualTo("{\"payer\": \"ada\"}");
        assertThat(headers(record)).containsExactly(
                "ce_specversion=1.0", "ce_id=" + EVENT, "ce_type=PaymentReceived", "ce_source=/payments",
                "ce_subject=payment-7", "ce_time=2026-12-02T19:45:12.345670Z", "content-type=application/json",
                "id=" + EVENT, "aggregate_type=Payment", "event_version=1",
                "traceparent=00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "correlation-id=c-1");
    }

    @Test
    void ceTimeIsTheInstantInUtcAsTheRelayWritesIt() {
        assertThat(OutboxRecordHeaders.instant("2026-12-02T20:45:12+01:00")).isEqualTo("2026-12-02T19:45:12Z");
        assertThat(OutboxRecordHeaders.instant("2026-12-02T19:45:12.1Z")).isEqualTo("2026-12-02T19:45:12.100Z");
        assertThatThrownBy(() -> OutboxRecordHeaders.instant("yesterday")).isInstanceOf(DataException.class);
    }

    @Test
    void storedHeadersThatAreNoJsonObjectStopTheRecordWithTheReason() {
        assertThat(OutboxRecordHeaders.storedHeaders("{}")).isEmpty();
        assertThat(OutboxRecordHeaders.storedHeaders("{\"tenant\": 7}")).isEqualTo(Map.of("tenant", "7"));
        assertThatThrownBy(() -> OutboxRecordHeaders.storedHeaders("[1]")).isInstanceOf(DataException.class)
                .hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> OutboxRecordHeaders.storedHeaders("{tenant")).isInstanceOf(DataException.class);
    }

    @Test
    void aRecordTheRouterDidNotMakeAnOutboxRecordPassesUnchanged() {
        SourceRecord heartbeat = new SourceRecord(Map.of(), Map.of(), "__debezium-heartbeat.outbox-relay", null,
                Schema.STRING_SCHEMA, "beat", null, null, 1L, new ConnectHeaders());

        assertThat(transform("/payments").apply(heartbeat)).isSameAs(heartbeat);
    }

    @Test
    void aPlacementWithoutAnExpectedColumnSaysWhichHeaderIsMissing() {
        SourceRecord routed = routed("{}");
        routed.headers().remove("ce_type");

        assertThatThrownBy(() -> transform("/payments").apply(routed)).isInstanceOf(DataException.class)
                .hasMessageContaining("'ce_type'");
    }

    private static OutboxRecordHeaders<SourceRecord> transform(String source) {
        OutboxRecordHeaders<SourceRecord> transform = new OutboxRecordHeaders<>();
        transform.configure(Map.of(OutboxRecordHeaders.SOURCE, source));
        return transform;
    }

    /** A record as Debezium's event router leaves it with the documented placement. */
    private static SourceRecord routed(String storedHeaders) {
        ConnectHeaders headers = new ConnectHeaders();
        headers.addString("id", EVENT);
        headers.addString("ce_type", "PaymentReceived");
        headers.addString("ce_subject", "payment-7");
        headers.addString("ce_time", "2026-12-02T19:45:12.34567Z");
        headers.addString("aggregate_type", "Payment");
        headers.addInt("event_version", 1);
        headers.addString(OutboxRecordHeaders.STORED_HEADERS, storedHeaders);
        return new SourceRecord(Map.of(), Map.of(), "payment.events", null, Schema.STRING_SCHEMA, "payment-7",
                Schema.STRING_SCHEMA, "{\"payer\": \"ada\"}", 1L, headers);
    }

    private static List<String> headers(SourceRecord record) {
        List<String> names = new ArrayList<>();
        for (Header header : record.headers()) {
            names.add(header.key() + "=" + header.value());
        }
        return names;
    }
}
