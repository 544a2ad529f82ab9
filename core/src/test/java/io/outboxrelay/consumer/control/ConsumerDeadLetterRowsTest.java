package io.outboxrelay.consumer.control;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class ConsumerDeadLetterRowsTest {

    @Test
    void theRecordsHeadersAreKeptAsOneJsonObjectTheLastValueOfEachNameAsText() {
        ConsumerRecord<String, String> record = new ConsumerRecord<>("order.events", 2, 17, "o-1", "{}");
        record.headers().add("ce_type", "OrderCreated".getBytes(StandardCharsets.UTF_8));
        record.headers().add("x-tries", "1".getBytes(StandardCharsets.UTF_8));
        record.headers().add("x-tries", "2".getBytes(StandardCharsets.UTF_8));
        record.headers().add("x-nul", "a\0b".getBytes(StandardCharsets.UTF_8));
        record.headers().add("x-empty", null);

        assertThat(ConsumerDeadLetterRows.headersJson(record))
                .isEqualTo("{\"ce_type\":\"OrderCreated\",\"x-tries\":\"2\",\"x-nul\":\"a\uFFFDb\"}");
    }

    @Test
    void theEventIdIsTheCloudEventsIdOrDebeziumsAndNoneWhenItIsNotAUuid() {
        UUID id = UUID.randomUUID();
        ConsumerRecord<String, String> cloudEvent = new ConsumerRecord<>("t", 0, 0, "k", "{}");
        cloudEvent.headers().add("ce_id", id.toString().getBytes(StandardCharsets.UTF_8));
        ConsumerRecord<String, String> debezium = new ConsumerRecord<>("t", 0, 1, "k", "{}");
        debezium.headers().add("id", id.toString().getBytes(StandardCharsets.UTF_8));
        ConsumerRecord<String, String> poison = new ConsumerRecord<>("t", 0, 2, "k", "{}");
        poison.headers().add("ce_id", "not-a-uuid".getBytes(StandardCharsets.UTF_8));

        assertThat(ConsumerDeadLetterRows.eventId(cloudEvent)).contains(id);
        assertThat(ConsumerDeadLetterRows.eventId(debezium)).contains(id);
        assertThat(ConsumerDeadLetterRows.eventId(poison)).isEmpty();
        assertThat(ConsumerDeadLetterRows.eventId(new ConsumerRecord<>("t", 0, 3, "k", "{}"))).isEmpty();
    }
}
