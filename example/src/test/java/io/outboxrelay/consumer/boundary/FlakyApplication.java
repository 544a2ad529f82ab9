package io.outboxrelay.consumer.boundary;

import io.outboxrelay.consumer.control.ConsumedEvents;
import io.outboxrelay.consumer.control.ConsumerDeadLetterRows;
import io.outboxrelay.consumer.control.ConsumerDeadLetters;
import io.outboxrelay.consumer.control.ConsumerPolicies;
import io.outboxrelay.consumer.control.IncomingEvents;
import io.outboxrelay.consumer.control.PartitionLanes;
import io.outboxrelay.consumer.control.ProcessSpans;
import io.outboxrelay.consumer.control.Retrying;
import io.outboxrelay.consumer.entity.ConsumerOutcome;
import io.outboxrelay.consumer.entity.IncomingEvent;
import io.outboxrelay.consumer.entity.PoisonRecordException;
import io.outboxrelay.consumer.entity.RecordPlace;
import io.outboxrelay.database.boundary.DatabaseFailures;
import io.outboxrelay.database.boundary.OutboxDataSources;
import io.outboxrelay.kafka.boundary.KafkaSettings;
import io.outboxrelay.time.Backoff;
import io.outboxrelay.time.OutboxClock;
import io.outboxrelay.time.SystemClock;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.jboss.shrinkwrap.api.Filters;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

import java.io.File;
import java.net.URISyntaxException;

/**
 * Another application built on the reusable consumer piece: {@link FlakyConsumer} on its own
 * liberty-kafka channel, as any team would deploy it next to Outbox Relay.
 */
final class FlakyApplication {

    private FlakyApplication() {
    }

    static WebArchive war(String name, String topic, String group) {
        return ShrinkWrap.create(WebArchive.class, name + ".war")
                .addClasses(FlakyConsumer.class, NotificationRows.class, ReliableConsumer.class,
                        IdempotentHandling.class, IdempotentHandling.Outcome.class, ConsumedEvents.class,
                        ConsumerDeadLetters.class, IncomingEvents.class, PartitionLanes.class, ConsumerOutcome.class,
                        ConsumerOutcome.Kind.class, ConsumerContext.class, Retrying.class, Retrying.Result.class,
                        Retrying.Pause.class, Retrying.Work.class, IncomingEvent.class, PoisonRecordException.class,
                        Backoff.class, DatabaseFailures.class, OutboxDataSources.class, KafkaSettings.class, SystemClock.class,
                        OutboxClock.class, ConsumerDeadLetterRows.class, ConsumerDeadLetterRows.Taken.class,
                        ConsumerPolicies.class, ConsumerReplays.class, RecordPlace.class, ProcessSpans.class)
                .addPackages(true, Filters.exclude(".*(Test|IT)(\\$.*)?\\.class"), "io.outboxrelay.tracing")
                .addAsResource("META-INF/persistence.xml")
                .addAsResource(new StringAsset(String.join("\n",
                        "mp.messaging.connector.liberty-kafka.bootstrap.servers=${KAFKA_BOOTSTRAP_SERVERS}",
                        "mp.messaging.incoming.flaky.connector=liberty-kafka",
                        "mp.messaging.incoming.flaky.topic=" + topic,
                        "mp.messaging.incoming.flaky.group.id=" + group,
                        "mp.messaging.incoming.flaky.key.deserializer=org.apache.kafka.common.serialization.StringDeserializer",
                        "mp.messaging.incoming.flaky.value.deserializer=org.apache.kafka.common.serialization.StringDeserializer",
                        "mp.messaging.incoming.flaky.enable.auto.commit=false",
                        "mp.messaging.incoming.flaky.auto.offset.reset=earliest")), "META-INF/microprofile-config.properties")
                // the relay compresses with lz4: a consumer of what it publishes needs the codec, as Maven
                // would package it (kafka-clients depends on it)
                .addAsLibraries(jarOf(KafkaProducer.class), jarOf(org.slf4j.Logger.class), jarOf(net.jpountz.lz4.LZ4Factory.class));
    }

    private static File jarOf(Class<?> type) {
        try {
            return new File(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
