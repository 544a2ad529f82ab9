package io.outboxrelay.faults;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scenario's line of the table: the counts, the facts worth printing beside them (kill times,
 * health seen, latency), and every expectation that did not hold.
 */
final class Result {

    private final String scenario;
    private final Map<String, Long> counts = new LinkedHashMap<>();
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final List<String> violations = new ArrayList<>();
    private String skipped;

    Result(String scenario) {
        this.scenario = scenario;
    }

    String scenario() {
        return scenario;
    }

    Map<String, Long> counts() {
        return counts;
    }

    Map<String, String> facts() {
        return facts;
    }

    List<String> violations() {
        return violations;
    }

    String skipped() {
        return skipped;
    }

    /** Kept: ran, and every expectation held. A skipped scenario proved nothing, so it is not kept. */
    boolean passed() {
        return skipped == null && violations.isEmpty();
    }

    Result count(String name, long value) {
        counts.put(name, value);
        return this;
    }

    Result fact(String name, Object value) {
        facts.put(name, String.valueOf(value));
        return this;
    }

    Result expect(boolean holds, String expectation) {
        if (!holds) {
            violations.add(expectation);
        }
        return this;
    }

    Result skip(String reason) {
        skipped = reason;
        return this;
    }

    /**
     * The counts every order scenario reports, and the promises every one of them keeps, all measured
     * against the orders written: every accepted order is in the database with its event and lines,
     * every order's event was published and is on Kafka, the inventory consumer applied each exactly
     * once, none was dead-lettered (an order's event is never poison), and no answer was a 5xx other
     * than a 503 problem document.
     */
    Result orders(OrderLoad load, Ledger.Counts db, Ledger.Topic topic, long acceptedButMissing) {
        count("accepted (201)", load.accepted());
        count("refused (503)", load.refused());
        count("no answer", load.noAnswer());
        count("other answers", load.unexpected());
        count("orders written", db.orders());
        count("events written", db.events());
        count("published", topic.distinct());
        count("records on Kafka", topic.records());
        count("duplicated", topic.duplicates());
        count("lost", topic.lost() + acceptedButMissing);
        count("consumed", db.consumed());
        count("inventory effect", db.effect());
        count("DLT", db.dlt());
        count("DEAD", db.dead());
        expect(acceptedButMissing == 0, acceptedButMissing + " orders answered 201 are not in the database");
        expect(topic.lost() == 0, topic.lost() + " events marked SENT are not on Kafka");
        expect(db.halfCommitted() == 0, db.halfCommitted() + " orders are missing their event or lines");
        expect(db.events() == db.orders(), db.orders() + " orders but " + db.events() + " events");
        expect(db.sent() == db.orders(), db.orders() + " orders but " + db.sent() + " events published");
        expect(db.consumed() == db.orders(), db.orders() + " orders but " + db.consumed() + " events consumed");
        expect(db.effect() == db.orders(), "inventory effect " + db.effect() + " for " + db.orders() + " orders");
        expect(db.dlt() + db.dead() == 0, db.dlt() + " DLT and " + db.dead() + " DEAD events of orders: no fault"
                + " may dead-letter an event that is not poison");
        expect(load.unexpected() == 0, load.unexpected() + " answers were neither 201 nor a 503 problem document, first: "
                + load.firstUnexpected().orElse(""));
        return this;
    }
}
