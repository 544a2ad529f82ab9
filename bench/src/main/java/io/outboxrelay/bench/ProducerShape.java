package io.outboxrelay.bench;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What the relay's way of sending costs Kafka, without a database: batches of 500 records (the benchmark's
 * records, with the ten headers) handed over at once, two batches in flight, a pause between batches standing
 * for the claim, each batch waited for on another thread, under one producer shape. Prints records/s, the CPU
 * per record of this process and of the broker (from {@code /proc}) and the producer's records per request.
 * <pre>
 * mvn -q -f bench/pom.xml compile exec:java -Dexec.mainClass=io.outboxrelay.bench.ProducerShape \
 *     -Dexec.args="127.0.0.1:9092 KAFKA_PID linger5-flush 200000 5"
 * </pre>
 * Shapes: {@code linger0} (the relay before 2026-12-05), {@code linger0-inflight1}, {@code linger5-flush} (the
 * relay since: it flushes when it waits for a batch). The first of two passes warms up; the second is printed.
 */
final class ProducerShape {

    private static final int BATCH = 500;

    private ProducerShape() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        long brokerPid = Long.parseLong(args[1]);
        String shape = args[2];
        int records = Integer.parseInt(args[3]);
        long claimMillis = Long.parseLong(args[4]);
        Map<String, Object> properties = new HashMap<>(Map.of("bootstrap.servers", bootstrap, "acks", "all",
                "enable.idempotence", true, "compression.type", "lz4", "batch.size", 128 * 1024));
        boolean flush = switch (shape) {
            case "linger0" -> {
                properties.put("linger.ms", 0);
                yield false;
            }
            case "linger0-inflight1" -> {
                properties.put("linger.ms", 0);
                properties.put("max.in.flight.requests.per.connection", 1);
                yield false;
            }
            case "linger5-flush" -> {
                properties.put("linger.ms", 5);
                yield true;
            }
            default -> throw new IllegalArgumentException("unknown shape " + shape);
        };
        String topic = "producer-shape-" + shape + "-" + System.currentTimeMillis();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 6, (short) 1))).all().get();
        }
        ExecutorService lander = Executors.newSingleThreadExecutor();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties, new StringSerializer(),
                new StringSerializer())) {
            producer.partitionsFor(topic);
            for (int pass = 1; pass <= 2; pass++) {
                long cpuBefore = processCpuNanos();
                long brokerBefore = ticks(brokerPid);
                long start = System.nanoTime();
                Future<?> landing = CompletableFuture.completedFuture(null);
                for (int batch = 0; batch < records / BATCH; batch++) {
                    Thread.sleep(claimMillis); // the claim's round trip to the database
                    List<Future<RecordMetadata>> acks = new ArrayList<>(BATCH);
                    for (int i = 0; i < BATCH; i++) {
                        long sequence = (long) batch * BATCH + i;
                        acks.add(producer.send(Shape.record(topic, Shape.key(sequence),
                                Shape.payload(sequence, System.currentTimeMillis()))));
                    }
                    landing.get(); // at most two batches in flight, as the pipelined relay
                    landing = lander.submit(() -> {
                        if (flush) {
                            producer.flush();
                        }
                        for (Future<RecordMetadata> ack : acks) {
                            ack.get();
                        }
                        return null;
                    });
                }
                landing.get();
                double seconds = (System.nanoTime() - start) / 1e9;
                if (pass == 2) {
                    System.out.printf(Locale.ROOT, "%-18s %,8.0f records/s  producer %.1f us/record  broker %.1f us/record"
                                    + "  records/request %.0f%n", shape, records / seconds,
                            (processCpuNanos() - cpuBefore) / 1e3 / records,
                            (ticks(brokerPid) - brokerBefore) * ProcessCpu.MILLIS_PER_TICK * 1_000 / records,
                            recordsPerRequest(producer));
                }
            }
        } finally {
            lander.shutdown();
        }
    }

    private static double recordsPerRequest(KafkaProducer<?, ?> producer) {
        return producer.metrics().entrySet().stream()
                .filter(metric -> metric.getKey().name().equals("records-per-request-avg")
                        && metric.getKey().group().equals("producer-metrics"))
                .mapToDouble(metric -> ((Number) metric.getValue().metricValue()).doubleValue())
                .findFirst().orElse(Double.NaN);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** A process's user and system time in ticks ({@link ProcessCpu#MILLIS_PER_TICK} each). */
    private static long ticks(long pid) throws Exception {
        return ProcessCpu.ticks(Files.readString(Path.of("/proc/" + pid + "/stat")), false);
    }
}
