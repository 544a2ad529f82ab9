package io.outboxrelay.console.pages.boundary;

import io.outboxrelay.console.events.boundary.Replays;
import io.outboxrelay.console.events.entity.EventNotFoundException;
import io.outboxrelay.console.events.entity.NotReplayableException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;

import java.util.UUID;

/** Replays from the console: only for operators, and every outcome told to the operator in one line. */
@RequestScoped
public class ConsoleReplays {

    @Inject
    Replays replays;

    @Inject
    ConsoleUser user;

    /** True for an operator; for anyone else false, and the console says why. */
    boolean allowed() {
        if (!user.isOperator()) {
            Messages.error("Only operators can replay events.");
            return false;
        }
        return true;
    }

    /** Replays one event as the signed-in operator (ask {@link #allowed()} first) and says how that went. */
    void replayOne(UUID eventId, String replayed) {
        try {
            replays.replayOne(eventId, user.getName());
            Messages.info(replayed);
        } catch (NotReplayableException | EventNotFoundException refused) {
            Messages.error(refused.getMessage());
        } catch (RuntimeException e) {
            Messages.unavailable("The database", e);
        }
    }
}
