package io.outboxrelay.cdc.control;

import io.outboxrelay.relay.boundary.StreamPublisher;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * One run of Debezium's embedded engine (in its own class loader, {@link EngineLoader}): each batch it reads is
 * published by the relay ({@link StreamPublisher}) before the engine may acknowledge it and move the slot on. So an
 * event is in Kafka, or waiting in the outbox for the polling relay, before the stream lets go of it. While Kafka
 * is down the stream waits (the slot keeps the WAL).
 */
public final class ChangeStream implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ChangeStream.class.getName());
    private static final String STREAM = "io.outboxrelay.cdc.engine.OutboxStream";

    private final StreamPublisher publisher;
    private final ClassLoader application = ChangeStream.class.getClassLoader();
    private final CountDownLatch ended = new CountDownLatch(1);
    private final CountDownLatch closing = new CountDownLatch(1);
    private final AtomicReference<String> failure = new AtomicReference<>();
    private final AutoCloseable engine;
    private final Thread thread;

    private ChangeStream(EngineLoader loader, Properties properties, StreamPublisher publisher, ThreadFactory threads)
            throws ReflectiveOperationException {
        this.publisher = publisher;
        Consumer<List<Long>> publish = this::publishAsApplication;
        BiConsumer<Boolean, String> completion = (success, message) -> {
            if (!success) {
                failure.set(message);
            }
            ended.countDown();
        };
        // Debezium finds its engine, Kafka Connect its converters and offset store, through the thread's context
        // class loader: the engine's own while it is built here, and on its thread (whose children inherit it)
        Thread current = Thread.currentThread();
        ClassLoader before = current.getContextClassLoader();
        Object stream;
        current.setContextClassLoader(loader.classLoader());
        try {
            stream = loader.classLoader().loadClass(STREAM)
                    .getConstructor(Properties.class, Consumer.class, BiConsumer.class)
                    .newInstance(properties, publish, completion);
        } finally {
            current.setContextClassLoader(before);
        }
        this.engine = (AutoCloseable) stream;
        Runnable run = (Runnable) stream;
        this.thread = threads.newThread(() -> {
            Thread.currentThread().setContextClassLoader(loader.classLoader());
            run.run();
        });
        thread.setName("outbox-relay-change-stream");
    }

    /** Starts streaming on a thread of {@code threads}. */
    public static ChangeStream start(EngineLoader loader, Properties properties, StreamPublisher publisher,
                                     ThreadFactory threads) throws ReflectiveOperationException {
        ChangeStream stream = new ChangeStream(loader, properties, publisher, threads);
        stream.thread.start();
        return stream;
    }

    /** Takes the engine's JDBC driver out of the JVM's DriverManager, before its class loader is closed. */
    public static void unload(EngineLoader loader) throws ReflectiveOperationException {
        loader.classLoader().loadClass(STREAM).getMethod("deregisterDrivers").invoke(null);
    }

    /** Waits up to {@code timeout} for the engine to stop on its own; true if it did. */
    public boolean awaitEnd(Duration timeout) throws InterruptedException {
        return ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Why the engine stopped on its own, if it failed. */
    public Optional<String> failure() {
        return Optional.ofNullable(failure.get());
    }

    /**
     * On the engine's thread, with the application's class loader as every other thread of it has: publishes what a
     * batch inserted. Throwing stops the engine without acknowledging the batch, which it streams again next time.
     */
    private void publishAsApplication(List<Long> ids) {
        Thread current = Thread.currentThread();
        ClassLoader engine = current.getContextClassLoader();
        current.setContextClassLoader(application);
        try {
            publisher.publish(ids, closing);
        } catch (InterruptedException e) {
            current.interrupt();
            throw new IllegalStateException("stopped while publishing: the batch is streamed again", e);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot publish the change stream's batch: " + e.getMessage(), e);
        } finally {
            current.setContextClassLoader(engine);
        }
    }

    /** Stops the engine (it acknowledges nothing it has not published) and waits for its thread. */
    @Override
    public void close() throws Exception {
        closing.countDown();
        try {
            engine.close();
        } finally {
            thread.join(Duration.ofSeconds(60).toMillis());
            if (thread.isAlive()) {
                LOG.warning("The change stream's engine did not stop within 60 s");
            }
        }
    }
}
