package io.outboxrelay.lag.entity;

/**
 * The CDC mode's replication slot: whether it exists, whether a server streams from it now, and how much
 * write-ahead log PostgreSQL keeps for it (from its restart position to the current end). A slot nobody reads keeps
 * WAL for ever, until the disk is full.
 */
public record SlotLag(String name, boolean present, boolean active, long retainedBytes) {

    public static SlotLag absent(String name) {
        return new SlotLag(name, false, false, 0);
    }
}
