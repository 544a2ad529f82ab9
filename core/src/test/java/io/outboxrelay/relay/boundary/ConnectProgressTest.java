package io.outboxrelay.relay.boundary;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class ConnectProgressTest {

    private static final UUID EVENT = UUID.fromString("0190f3a2-7c1e-7b2a-9d4e-5f6a7b8c9d0e");

    @Test
    void theEventIsTheCloudEventsIdElseTheDebeziumStyleId() {
        assertThat(ConnectProgress.eventId(record("ce_id", EVENT.toString(), "id", "not-this"))).contains(EVENT);
        assertThat(ConnectProgress.eventId(record("id", EVENT.toString()))).contains(EVENT);
        assertThat(ConnectProgress.eventId(record("ce_id", "order-42", "id", EVENT.toString()))).contains(EVENT);
    }

    @Test
    void aRecordWithoutAnEventIdIsNoneOfTheOutboxs() {
        assertThat(ConnectProgress.eventId(record())).isEmpty();
        assertThat(ConnectProgress.eventId(record("ce_id", "order-42"))).isEmpty();
    }

    @Test
    void theConsumerCommitsOnlyAfterTheMarkInItsOwnGroupWhateverTheSettingsSay() {
        Map<String, Object> properties = ConnectProgress.consumerProperties(Map.of("bootstrap.servers", "127.0.0.1:9",
                "enable.auto.commit", "true", "group.id", "someone-else", "auto.offset.reset", "latest"), "progress");

        assertThat(properties).containsEntry("enable.auto.commit", false).containsEntry("group.id", "progress")
                .containsEntry("isolation.level", "read_committed").containsEntry("bootstrap.servers", "127.0.0.1:9")
                .as("a deliberate setting is kept").containsEntry("auto.offset.reset", "latest");
        assertThat(ConnectProgress.consumerProperties(Map.of(), "progress")).containsEntry("auto.offset.reset", "earliest");
    }

    private static ConsumerRecord<byte[], byte[]> record(String... headers) {
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("order.events", 0, 0L, null, new byte[0]);
        for (int i = 0; i < headers.length; i += 2) {
            record.headers().add(headers[i], headers[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return record;
    }
}
