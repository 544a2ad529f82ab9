package io.outboxrelay.cdc.control;

import java.util.Map;
import java.util.Properties;

/**
 * Debezium's configuration for the outbox's change stream: the PostgreSQL connector with pgoutput, a publication
 * of the outbox table alone, a named slot, no snapshot (what was waiting before the slot existed is the polling
 * relay's), inserts only, and only the id column: the relay reads the rows it claims itself. Offsets go to the
 * outbox's database (the engine's {@code PostgresOffsetStore}). The operator's {@code outbox.cdc.engine.*} keys come last.
 */
public final class EngineProperties {

    /** The engine's offset store and its settings (the engine's own class loader has it: see {@link EngineLoader}). */
    static final String OFFSET_STORE = "io.outboxrelay.cdc.engine.PostgresOffsetStore";
    static final String OFFSET_URL = "offset.storage.outbox.url";
    static final String OFFSET_USER = "offset.storage.outbox.user";
    static final String OFFSET_PASSWORD = "offset.storage.outbox.password";
    static final String OFFSET_TABLE = "offset.storage.outbox.table";

    /** Where and what to stream. */
    public record Source(String host, int port, String database, String user, String password, String schema,
                         String slot, String publication, int batchSize) {
    }

    /** Host, port and database of a {@code jdbc:postgresql://host[:port]/database[?...]} URL. */
    public record Address(String host, int port, String database) {

        public static Address of(String jdbcUrl) {
            String prefix = "jdbc:postgresql://";
            if (jdbcUrl == null || !jdbcUrl.startsWith(prefix)) {
                throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + jdbcUrl
                        + "; set outbox.cdc.database.host, .port and .name");
            }
            String rest = jdbcUrl.substring(prefix.length());
            int query = rest.indexOf('?');
            rest = query < 0 ? rest : rest.substring(0, query);
            int slash = rest.indexOf('/');
            String hostPort = slash < 0 ? rest : rest.substring(0, slash);
            String database = slash < 0 ? "" : rest.substring(slash + 1);
            if (hostPort.contains(",") || hostPort.isEmpty() || database.isEmpty()) {
                throw new IllegalArgumentException("one host and a database expected in " + jdbcUrl
                        + "; set outbox.cdc.database.host, .port and .name");
            }
            int colon = hostPort.lastIndexOf(':');
            boolean hasPort = colon > 0 && !hostPort.endsWith("]");
            return new Address(hasPort ? hostPort.substring(0, colon) : hostPort,
                    hasPort ? Integer.parseInt(hostPort.substring(colon + 1)) : 5432, database);
        }
    }

    private EngineProperties() {
    }

    public static Properties of(Source source, Map<String, String> overrides) {
        Properties engine = new Properties();
        engine.setProperty("name", source.slot());
        engine.setProperty("connector.class", "io.debezium.connector.postgresql.PostgresConnector");
        engine.setProperty("offset.storage", OFFSET_STORE);
        engine.setProperty(OFFSET_URL, "jdbc:postgresql://" + source.host() + ":" + source.port() + "/"
                + source.database());
        engine.setProperty(OFFSET_USER, source.user());
        engine.setProperty(OFFSET_PASSWORD, source.password());
        engine.setProperty(OFFSET_TABLE, quoted(source.schema()) + ".outbox_cdc_offset");
        engine.setProperty("offset.flush.interval.ms", "1000");
        engine.setProperty("database.hostname", source.host());
        engine.setProperty("database.port", Integer.toString(source.port()));
        engine.setProperty("database.user", source.user());
        engine.setProperty("database.password", source.password());
        engine.setProperty("database.dbname", source.database());
        engine.setProperty("topic.prefix", source.slot()); // names no topic: the records never leave this server
        engine.setProperty("plugin.name", "pgoutput");
        engine.setProperty("slot.name", source.slot());
        engine.setProperty("publication.name", source.publication());
        engine.setProperty("publication.autocreate.mode", "filtered");
        engine.setProperty("table.include.list", source.schema() + ".outbox_event");
        engine.setProperty("column.include.list", source.schema() + ".outbox_event.id");
        engine.setProperty("snapshot.mode", "no_data");
        engine.setProperty("skipped.operations", "u,d,t");
        engine.setProperty("tombstones.on.delete", "false");
        engine.setProperty("max.batch.size", Integer.toString(source.batchSize()));
        engine.setProperty("max.queue.size", Integer.toString(4 * source.batchSize()));
        engine.setProperty("poll.interval.ms", "10");
        // confirms the slot's position while the outbox is quiet, so it does not hold back the WAL of other tables
        engine.setProperty("heartbeat.interval.ms", "10000");
        overrides.forEach(engine::setProperty);
        return engine;
    }

    private static String quoted(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
