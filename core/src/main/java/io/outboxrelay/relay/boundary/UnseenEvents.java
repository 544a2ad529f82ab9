package io.outboxrelay.relay.boundary;

import io.outboxrelay.relay.control.RelayStore.Landed;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Connect mode: records whose event this server could not see when it read them, kept to be marked again for a
 * while. A record can reach the servers before its commit is visible to their sessions (the stream reads the WAL,
 * and a synchronous standby delays visibility); marked at once, its event would stay PENDING for ever. A record of
 * an event of another database on a matching topic is never seen, and is given up after {@code patience}. At most
 * {@code capacity} are kept, the oldest given up first.
 */
final class UnseenEvents {

    private record Held(Landed landed, Instant firstSeen) {
    }

    private final Duration patience;
    private final int capacity;
    private final Map<UUID, Held> held = new LinkedHashMap<>();

    UnseenEvents(Duration patience, int capacity) {
        this.patience = patience;
        this.capacity = capacity;
    }

    /** The records to mark again with the next ones. */
    List<Landed> held() {
        return held.values().stream().map(Held::landed).toList();
    }

    boolean isEmpty() {
        return held.isEmpty();
    }

    /**
     * After a mark of the held records and {@code fresh} ones: {@code absent} are those whose event was not
     * visible. Held ones now seen go, as do those waited for long enough; fresh absent ones are held.
     *
     * @return how many were given up
     */
    int afterMark(List<Landed> fresh, Set<UUID> absent, Instant now) {
        int givenUp = 0;
        for (Iterator<Held> it = held.values().iterator(); it.hasNext(); ) {
            Held entry = it.next();
            if (!absent.contains(entry.landed().eventId())) {
                it.remove();
            } else if (Duration.between(entry.firstSeen(), now).compareTo(patience) >= 0) {
                it.remove();
                givenUp++;
            }
        }
        for (Landed landed : fresh) {
            if (absent.contains(landed.eventId())) {
                held.putIfAbsent(landed.eventId(), new Held(landed, now));
            }
        }
        for (Iterator<Held> it = held.values().iterator(); held.size() > capacity && it.hasNext(); ) {
            it.next();
            it.remove();
            givenUp++;
        }
        return givenUp;
    }
}
