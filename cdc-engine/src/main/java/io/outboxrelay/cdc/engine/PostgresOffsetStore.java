package io.outboxrelay.cdc.engine;

import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.MemoryOffsetBackingStore;

import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Set;

/**
 * Kafka Connect's offsets of the change stream, kept in the outbox's database ({@code outbox_cdc_offset}, one row
 * per key) instead of a file on one server's disk: the server that streams next resumes where the last one
 * acknowledged. Debezium creates the store itself from its class name, so it opens its own connections with the
 * engine's credentials; it writes once per offset flush (every second at most).
 */
public class PostgresOffsetStore extends MemoryOffsetBackingStore {

    static final String URL = "offset.storage.outbox.url";
    static final String USER = "offset.storage.outbox.user";
    static final String PASSWORD = "offset.storage.outbox.password";
    static final String TABLE = "offset.storage.outbox.table";

    private String url;
    private String user;
    private String password;
    private String table;
    private String engine;

    @Override
    public void configure(WorkerConfig config) {
        super.configure(config);
        Map<String, Object> settings = config.originals();
        url = String.valueOf(settings.get(URL));
        user = String.valueOf(settings.get(USER));
        password = String.valueOf(settings.get(PASSWORD));
        table = String.valueOf(settings.get(TABLE));
        engine = String.valueOf(settings.get("name"));
    }

    @Override
    public synchronized void start() {
        super.start();
        try (Connection connection = connect();
             PreparedStatement read = connection.prepareStatement(
                     "SELECT offset_key, offset_value FROM " + table + " WHERE engine = ?")) {
            read.setString(1, engine);
            try (ResultSet rows = read.executeQuery()) {
                while (rows.next()) {
                    byte[] value = rows.getBytes(2);
                    data.put(ByteBuffer.wrap(rows.getBytes(1)), value == null ? null : ByteBuffer.wrap(value));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the change stream's offsets from " + table + ": " + e.getMessage(), e);
        }
    }

    /** Writes every offset in one transaction (Kafka Connect calls this on its own thread after each flush). */
    @Override
    protected void save() {
        try (Connection connection = connect();
             PreparedStatement write = connection.prepareStatement("INSERT INTO " + table
                     + " (engine, offset_key, offset_value, updated_at) VALUES (?, ?, ?, now())"
                     + " ON CONFLICT (engine, offset_key) DO UPDATE SET offset_value = excluded.offset_value,"
                     + " updated_at = excluded.updated_at")) {
            connection.setAutoCommit(false);
            for (Map.Entry<ByteBuffer, ByteBuffer> offset : data.entrySet()) {
                write.setString(1, engine);
                write.setBytes(2, bytes(offset.getKey()));
                write.setBytes(3, offset.getValue() == null ? null : bytes(offset.getValue()));
                write.addBatch();
            }
            write.executeBatch();
            connection.commit();
        } catch (SQLException e) {
            // the flush fails and Kafka Connect tries again at the next one; the slot keeps the WAL meanwhile
            throw new IllegalStateException("Cannot write the change stream's offsets to " + table + ": " + e.getMessage(), e);
        }
    }

    /** Not asked for by the embedded engine (Kafka Connect's REST API lists these). */
    @Override
    public Set<Map<String, Object>> connectorPartitions(String connectorName) {
        return Set.of();
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
