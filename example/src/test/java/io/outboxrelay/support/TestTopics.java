package io.outboxrelay.support;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The test cluster does not create topics on use (as production clusters often do not), so the
 * sample domain's topics are created once, before any integration test runs.
 */
public class TestTopics implements LauncherSessionListener {

    private static final List<String> SAMPLE_TOPICS = List.of("order.events", "order.events.DLT",
            "order.events.inventory.DLT", "order.events.notifications.DLT",
            "flaky.events", "flaky.events.flaky-it.DLT", "redelivery.events", "redelivery.events.redelivery-it.DLT",
            "replay.events", "replay.events.replay-a.DLT", "replay.events.replay-b.DLT");

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        String bootstrap = System.getProperty("it.kafka.bootstrap");
        if (bootstrap == null) {
            return; // unit tests: no cluster
        }
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            for (String topic : SAMPLE_TOPICS) {
                try {
                    admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + topic, e);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the test Kafka cluster did not create the sample topics", e);
        }
    }
}
