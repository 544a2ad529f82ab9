package io.outboxrelay.console.pages.boundary;

import io.outboxrelay.console.events.boundary.Events;
import io.outboxrelay.console.events.boundary.Events.DeadLetterGroup;
import io.outboxrelay.console.events.boundary.Replays;
import io.outboxrelay.console.events.entity.BulkReplayResult;
import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.console.events.entity.EventNotFoundException;
import io.outboxrelay.console.events.entity.EventSummary;
import io.outboxrelay.console.events.entity.NotReplayableException;
import io.outboxrelay.console.pages.control.LazyEvents;
import io.outboxrelay.outbox.entity.EventStatus;
import jakarta.annotation.PostConstruct;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Dead letters the way operators triage them: DLT and DEAD events grouped by topic, state and
 * error class; pick a group to see its events, replay one, the selected ones, or all that match
 * (after a dry run says how many).
 */
@Named("outboxDeadLetters")
@ViewScoped
public class DeadLettersPage implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    Events queries;

    @Inject
    Replays replays;

    @Inject
    ConsoleUser user;

    @Inject
    ConsoleReplays console;

    private transient List<DeadLetterGroup> groups;
    private DeadLetterGroup group;
    private LazyEvents events;
    private List<EventSummary> selected = new ArrayList<>();
    private int matched;

    @PostConstruct
    void init() {
        events = new LazyEvents(queries, this::filter);
    }

    public List<DeadLetterGroup> getGroups() {
        if (groups == null) {
            try {
                groups = queries.deadLetterGroups();
            } catch (SQLException e) {
                groups = List.of();
                Messages.unavailable("The database", e);
            }
        }
        return groups;
    }

    /** The events of the chosen group, or every dead letter when none is chosen. */
    public EventFilter filter() {
        if (group == null) {
            return new EventFilter(null, null, null, null, EnumSet.of(EventStatus.DLT, EventStatus.DEAD), null, null);
        }
        return new EventFilter(null, null, null, null, Set.of(EventStatus.valueOf(group.status())), null, null,
                group.topic(), group.errorClass());
    }

    public void choose(DeadLetterGroup chosen) {
        group = chosen;
        selected = new ArrayList<>();
    }

    public void showAll() {
        choose(null);
    }

    public void replay(UUID eventId) {
        if (!console.allowed()) {
            return;
        }
        console.replayOne(eventId, "Replayed " + eventId + ".");
        refresh();
    }

    public void replaySelected() {
        if (!console.allowed()) {
            return;
        }
        if (selected == null || selected.isEmpty()) {
            Messages.error("Select the events to replay first.");
            return;
        }
        int replayed = 0;
        List<String> refused = new ArrayList<>();
        for (EventSummary event : selected) {
            try {
                replayed += replays.replayOne(event.eventId(), user.getName());
            } catch (NotReplayableException | EventNotFoundException notAnymore) {
                refused.add(event.eventId().toString());
            } catch (RuntimeException e) {
                Messages.unavailable("The database", e);
                break;
            }
        }
        Messages.info("Replayed " + replayed + " event(s)." + (refused.isEmpty() ? ""
                : " Not replayed (no longer dead letters): " + String.join(", ", refused) + "."));
        refresh();
    }

    /** The dry run shown in the confirmation dialog before a bulk replay. */
    public void countMatching() {
        try {
            matched = replays.replayMatching(filter(), true, user.getName()).matched();
        } catch (RuntimeException e) {
            Messages.unavailable("The database", e);
        }
    }

    public void replayMatching() {
        if (!console.allowed()) {
            return;
        }
        try {
            BulkReplayResult result = replays.replayMatching(filter(), false, user.getName());
            Messages.info("Replayed " + result.replayed() + " of " + result.matched()
                    + " matching dead letter(s), those last changed before " + result.cutoff() + ".");
        } catch (RuntimeException e) {
            Messages.unavailable("The database", e);
        }
        refresh();
    }

    private void refresh() {
        groups = null;
        selected = new ArrayList<>();
        if (group != null && getGroups().stream().noneMatch(group::equals)) {
            group = getGroups().stream().filter(same -> same.topic().equals(group.topic())
                    && same.status().equals(group.status()) && java.util.Objects.equals(same.errorClass(), group.errorClass()))
                    .findFirst().orElse(null);
        }
    }

    public String getGroupTitle() {
        return group == null ? "All dead letters" : group.status() + " on " + group.topic() + ": " + group.errorClass();
    }

    public DeadLetterGroup getGroup() {
        return group;
    }

    public LazyEvents getEvents() {
        return events;
    }

    public List<EventSummary> getSelected() {
        return selected;
    }

    public void setSelected(List<EventSummary> selected) {
        this.selected = selected;
    }

    public int getMatched() {
        return matched;
    }
}
