package io.outboxrelay.consumer.control;

import io.outboxrelay.kafka.boundary.KafkaSettings;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Publishes records a consumer gave up on to {@code <topic>.<group>.DLT}, and waits for the ack. */
@ApplicationScoped
public class ConsumerDeadLetters {

    private static final int STACK_TRACE_LIMIT = 4000;

    @Inject
    KafkaSettings kafka;

    private Producer<String, String> producer;

    public static String topicFor(String topic, String group) {
        return topic + "." + group + ".DLT";
    }

    /** Returns once Kafka has the dead letter; throws if it could not take it (the record is then not acknowledged). */
    public void send(String group, ConsumerRecord<String, String> record, Retrying.Result failure)
            throws InterruptedException, ExecutionException, TimeoutException {
        ProducerRecord<String, String> letter = new ProducerRecord<>(topicFor(record.topic(), group), null,
                record.key(), record.value());
        for (Header header : record.headers()) {
            letter.headers().add(header);
        }
        Throwable error = failure.lastError();
        add(letter, "dlt_original_topic", record.topic());
        add(letter, "dlt_original_partition", Integer.toString(record.partition()));
        add(letter, "dlt_original_offset", Long.toString(record.offset()));
        add(letter, "dlt_consumer_group", group);
        add(letter, "dlt_error_class", error.getClass().getName());
        add(letter, "dlt_error_message", String.valueOf(error.getMessage()));
        add(letter, "dlt_stack_trace", stackTrace(error));
        add(letter, "dlt_attempts", Integer.toString(failure.attempts()));
        add(letter, "dlt_first_failure_at", DateTimeFormatter.ISO_INSTANT.format(failure.firstFailure()));
        add(letter, "dlt_last_failure_at", DateTimeFormatter.ISO_INSTANT.format(failure.lastFailure()));
        String eventId = IncomingEvents.header(record, "ce_id");
        if (eventId != null) {
            add(letter, "dlt_event_id", eventId);
        }
        producer().send(letter).get(30, TimeUnit.SECONDS);
    }

    private static void add(ProducerRecord<String, String> record, String name, String value) {
        record.headers().add(name, value.getBytes(StandardCharsets.UTF_8));
    }

    static String stackTrace(Throwable error) {
        StringWriter text = new StringWriter();
        error.printStackTrace(new PrintWriter(text));
        String trace = text.toString();
        return trace.length() <= STACK_TRACE_LIMIT ? trace : trace.substring(0, STACK_TRACE_LIMIT) + "...";
    }

    private synchronized Producer<String, String> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(kafka.reliableProducerProperties("consumer-dlt",
                    Map.of(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000)), new StringSerializer(), new StringSerializer());
        }
        return producer;
    }

    @PreDestroy
    synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }
}
