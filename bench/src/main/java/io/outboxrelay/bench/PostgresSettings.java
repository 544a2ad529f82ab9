package io.outboxrelay.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The PostgreSQL every contender ran on and the settings that move its figures, as the server
 * itself reports them at the start of a run: a given database's settings are printed as they are.
 */
record PostgresSettings(String version, Map<String, String> settings) {

    static final List<String> SHOWN = List.of("shared_buffers", "max_wal_size", "checkpoint_timeout", "synchronous_commit",
            "wal_level", "autovacuum", "autovacuum_naptime", "autovacuum_vacuum_scale_factor", "work_mem");

    static PostgresSettings read(Env env) throws Exception {
        try (Connection connection = env.connect(); Statement sql = connection.createStatement()) {
            String version;
            try (ResultSet row = sql.executeQuery("SELECT version()")) {
                row.next();
                version = row.getString(1);
            }
            Map<String, String> settings = new LinkedHashMap<>();
            for (String name : SHOWN) {
                try (ResultSet row = sql.executeQuery("SHOW " + name)) {
                    row.next();
                    settings.put(name, row.getString(1));
                }
            }
            return new PostgresSettings(version, settings);
        }
    }

    /** "PostgreSQL 16.4" of "PostgreSQL 16.4 on x86_64-pc-linux-gnu, compiled by ...". */
    String shortVersion() {
        String[] words = version.split("\\s+");
        return words.length >= 2 ? words[0] + " " + words[1].replaceAll(",$", "") : version;
    }

    String json() {
        List<String> entries = new ArrayList<>();
        settings.forEach((name, value) -> entries.add("\"" + name + "\": \"" + Report.escape(value) + "\""));
        return "{\"version\": \"" + Report.escape(version) + "\", \"settings\": {" + String.join(", ", entries) + "}}";
    }

    String markdown() {
        List<String> entries = new ArrayList<>();
        settings.forEach((name, value) -> entries.add(name + "=" + value));
        return shortVersion().replaceFirst("^PostgreSQL ", "PostgreSQL: ") + "; " + String.join(", ", entries);
    }
}
