package io.outboxrelay.bench;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.util.ArrayList;
import java.util.List;

/** The ceiling: the same records sent by a reliable producer straight from memory, no database. */
final class RawKafka implements Contender, Steady.Capable {

    @Override
    public String name() {
        return "raw-kafka";
    }

    @Override
    public String settings() {
        return "KafkaProducer acks=all, idempotent, linger.ms=5, lz4; records (with Outbox Relay's ten headers) prepared in memory";
    }

    @Override
    public Backlog.Drained drain(Env env, int n, Backlog.Timing timing) throws Exception {
        String topic = env.freshTopic(name());
        List<ProducerRecord<String, String>> records = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            records.add(Shape.record(topic, Shape.key(i), Shape.payload(i, System.currentTimeMillis())));
        }
        try (KafkaProducer<String, String> producer = env.producer()) {
            producer.partitionsFor(topic); // metadata first, as a running service would have it
            ProcessCpu.Sample before = Backlog.cpuSample(env);
            long start = System.nanoTime();
            for (ProducerRecord<String, String> record : records) {
                producer.send(record);
            }
            long handedOver = System.nanoTime() - start; // its "commit": the last send() returned
            producer.flush(); // returns when every record is acknowledged
            long nanos = System.nanoTime() - start;
            return new Backlog.Drained(nanos, handedOver, Backlog.Timing.WHILE_WRITTEN, Backlog.cpuPerEvent(env, before, n));
        }
    }

    @Override
    public Steady steady(Env env) throws Exception {
        String topic = env.freshTopic(name());
        KafkaProducer<String, String> producer = env.producer();
        producer.partitionsFor(topic);
        return Steady.of(topic, "send() per event; latency from the send call (no database, no commit)",
                sequence -> producer.send(Shape.record(topic, Shape.key(sequence),
                        Shape.payload(sequence, System.currentTimeMillis()))), producer::close);
    }
}
