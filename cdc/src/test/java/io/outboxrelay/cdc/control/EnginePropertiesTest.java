package io.outboxrelay.cdc.control;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EnginePropertiesTest {

    private static final EngineProperties.Source SOURCE = new EngineProperties.Source("127.0.0.1", 5433, "orders",
            "relay", "secret", "sales", "outbox_relay", "outbox_relay_pub", 1000);

    @Test
    void streamsTheOutboxTablesInsertsFromItsOwnSlotAndPublication() {
        Properties engine = EngineProperties.of(SOURCE, Map.of());

        assertThat(engine.getProperty("plugin.name")).isEqualTo("pgoutput");
        assertThat(engine.getProperty("slot.name")).isEqualTo("outbox_relay");
        assertThat(engine.getProperty("publication.name")).isEqualTo("outbox_relay_pub");
        assertThat(engine.getProperty("publication.autocreate.mode")).as("a publication of the outbox table alone")
                .isEqualTo("filtered");
        assertThat(engine.getProperty("table.include.list")).isEqualTo("sales.outbox_event");
        assertThat(engine.getProperty("skipped.operations")).as("inserts only").isEqualTo("u,d,t");
        assertThat(engine.getProperty("snapshot.mode")).as("what waited before the slot is the polling relay's")
                .isEqualTo("no_data");
        assertThat(engine.getProperty("database.dbname")).isEqualTo("orders");
        assertThat(engine.getProperty("database.port")).isEqualTo("5433");
    }

    @Test
    void keepsItsOffsetsInTheOutboxDatabase() {
        Properties engine = EngineProperties.of(SOURCE, Map.of());

        assertThat(engine.getProperty("offset.storage")).isEqualTo("io.outboxrelay.cdc.engine.PostgresOffsetStore");
        assertThat(engine.getProperty(EngineProperties.OFFSET_URL)).isEqualTo("jdbc:postgresql://127.0.0.1:5433/orders");
        assertThat(engine.getProperty(EngineProperties.OFFSET_TABLE)).isEqualTo("\"sales\".outbox_cdc_offset");
    }

    @Test
    void theOperatorsEngineSettingsComeLast() {
        Properties engine = EngineProperties.of(SOURCE, Map.of("heartbeat.interval.ms", "2000", "slot.max.retries", "12"));

        assertThat(engine.getProperty("heartbeat.interval.ms")).isEqualTo("2000");
        assertThat(engine.getProperty("slot.max.retries")).isEqualTo("12");
    }

    @Test
    void readsWhereToConnectFromTheDataSourcesUrl() {
        assertThat(EngineProperties.Address.of("jdbc:postgresql://db.internal:6543/orders?sslmode=require"))
                .isEqualTo(new EngineProperties.Address("db.internal", 6543, "orders"));
        assertThat(EngineProperties.Address.of("jdbc:postgresql://127.0.0.1/outbox"))
                .isEqualTo(new EngineProperties.Address("127.0.0.1", 5432, "outbox"));
    }

    @Test
    void refusesAUrlItCannotStreamFromWithWhatToSetInstead() {
        assertThatThrownBy(() -> EngineProperties.Address.of("jdbc:postgresql://a:5432,b:5432/outbox"))
                .hasMessageContaining("outbox.cdc.database.host");
        assertThatThrownBy(() -> EngineProperties.Address.of("jdbc:oracle:thin:@db:1521/x"))
                .hasMessageContaining("not a PostgreSQL JDBC URL");
    }
}
