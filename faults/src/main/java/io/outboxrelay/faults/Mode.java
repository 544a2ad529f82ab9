package io.outboxrelay.faults;

import java.time.Duration;

/**
 * How big a run is. Quick keeps every scenario but with small counts and short outages, so it fits
 * in a CI build; full is the run: 100,000 orders under five kills, a 60 s broker outage.
 */
enum Mode {
    QUICK(3_000, 2, 2_000, 100, Duration.ofSeconds(15), Duration.ofSeconds(8), 1_000, 10),
    FULL(100_000, 5, 30_000, 300, Duration.ofSeconds(60), Duration.ofSeconds(20), 10_000, 60);

    /** Orders written while the server is killed. */
    final int crashOrders;
    /** How often it is killed with SIGKILL (and restarted). */
    final int kills;
    /** Orders per scenario for the other scenarios. */
    final int orders;
    /**
     * Orders offered per second by the writer: below what the server takes on two cores, so the
     * faults are the only stall, and slow enough that every outage happens under load.
     */
    final int ratePerSecond;
    final Duration brokerOutage;
    final Duration databaseOutage;
    /** Good orders written while poison events are mixed in (and as many before, as a baseline). */
    final int poisonGoodOrders;
    /** Poison events of each kind. */
    final int poisonPerKind;

    Mode(int crashOrders, int kills, int orders, int ratePerSecond, Duration brokerOutage, Duration databaseOutage,
         int poisonGoodOrders, int poisonPerKind) {
        this.crashOrders = crashOrders;
        this.kills = kills;
        this.orders = orders;
        this.ratePerSecond = ratePerSecond;
        this.brokerOutage = brokerOutage;
        this.databaseOutage = databaseOutage;
        this.poisonGoodOrders = poisonGoodOrders;
        this.poisonPerKind = poisonPerKind;
    }
}
