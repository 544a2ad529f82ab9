package io.outboxrelay.cdc.engine;

import io.debezium.embedded.Connect;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import org.apache.kafka.connect.source.SourceRecord;

import java.io.IOException;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Debezium's embedded engine streaming the outbox's inserts: each batch's ids go to {@code publish}, which returns
 * once every event is published or left to the polling relay, and only then does the engine acknowledge the batch
 * (so the slot moves on). When {@code publish} throws, the engine stops without acknowledging, and streams the
 * batch again when it starts next. Only JDK types in this class's API: it lives in a class loader of its own.
 */
public final class OutboxStream implements Runnable, AutoCloseable {

    private final DebeziumEngine<ChangeEvent<SourceRecord, SourceRecord>> engine;

    /**
     * @param completion told once the engine has stopped: whether it stopped cleanly, and if not, why
     */
    public OutboxStream(Properties config, Consumer<List<Long>> publish, BiConsumer<Boolean, String> completion) {
        this.engine = DebeziumEngine.create(Connect.class)
                .using(config)
                .using((success, message, error) ->
                        completion.accept(success, message + (error == null ? "" : ": " + error)))
                .notifying((records, committer) -> {
                    publish.accept(OutboxChanges.insertedIds(records.stream().map(ChangeEvent::value).toList()));
                    for (ChangeEvent<SourceRecord, SourceRecord> record : records) {
                        committer.markProcessed(record);
                    }
                    committer.markBatchFinished();
                })
                .build();
    }

    @Override
    public void run() {
        engine.run();
    }

    @Override
    public void close() throws IOException {
        engine.close();
    }

    /** Takes this class loader's JDBC driver out of the JVM's DriverManager, so the loader can be collected. */
    public static void deregisterDrivers() throws SQLException {
        ClassLoader own = OutboxStream.class.getClassLoader();
        for (Driver driver : Collections.list(DriverManager.getDrivers())) {
            if (driver.getClass().getClassLoader() == own) {
                DriverManager.deregisterDriver(driver);
            }
        }
    }
}
