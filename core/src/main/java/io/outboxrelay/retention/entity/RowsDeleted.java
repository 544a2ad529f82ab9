package io.outboxrelay.retention.entity;

/** Fired after each batch the retention job deleted (for the metrics). */
public record RowsDeleted(String table, int rows) {
}
