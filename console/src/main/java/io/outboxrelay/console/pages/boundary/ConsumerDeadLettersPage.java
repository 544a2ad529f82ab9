package io.outboxrelay.console.pages.boundary;

import io.outboxrelay.console.consumers.boundary.ConsumerDeadLetterQueries;
import io.outboxrelay.console.consumers.boundary.ConsumerReplayRequests;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetter;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterFilter;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterGroup;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterNotFoundException;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterNotReplayableException;
import io.outboxrelay.console.consumers.entity.ConsumerReplayResult;
import io.outboxrelay.console.pages.control.LazyConsumerDeadLetters;
import jakarta.annotation.PostConstruct;
import jakarta.faces.view.ViewScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

import java.io.Serializable;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The records consumer groups gave up on, the way operators triage them: those waiting grouped by consumer
 * group, topic and error class; pick a group to see its records, replay one, the selected ones, or all that
 * match (after a dry run says how many). Each goes back to its own consumer group alone.
 */
@Named("outboxConsumerDeadLetters")
@ViewScoped
public class ConsumerDeadLettersPage implements Serializable {

    private static final long serialVersionUID = 1L;

    @Inject
    ConsumerDeadLetterQueries queries;

    @Inject
    ConsumerReplayRequests replays;

    @Inject
    ConsoleUser user;

    private transient List<ConsumerDeadLetterGroup> groups;
    private ConsumerDeadLetterGroup group;
    private LazyConsumerDeadLetters letters;
    private List<ConsumerDeadLetter> selected = new ArrayList<>();
    private int matched;

    @PostConstruct
    void init() {
        letters = new LazyConsumerDeadLetters(queries, this::filter);
    }

    public List<ConsumerDeadLetterGroup> getGroups() {
        if (groups == null) {
            try {
                groups = queries.groups();
            } catch (SQLException e) {
                groups = List.of();
                Messages.unavailable("The database", e);
            }
        }
        return groups;
    }

    /** The records of the chosen group, or every consumer dead letter (whatever its state) when none is chosen. */
    public ConsumerDeadLetterFilter filter() {
        if (group == null) {
            return ConsumerDeadLetterFilter.ALL;
        }
        return new ConsumerDeadLetterFilter(group.consumerGroup(), group.topic(), group.errorClass(), null, "DEAD_LETTERED");
    }

    public void choose(ConsumerDeadLetterGroup chosen) {
        group = chosen;
        selected = new ArrayList<>();
    }

    public void showAll() {
        choose(null);
    }

    public void replay(long id) {
        if (allowed()) {
            replayOne(id);
            refresh();
        }
    }

    public void replaySelected() {
        if (!allowed()) {
            return;
        }
        if (selected == null || selected.isEmpty()) {
            Messages.error("Select the records to replay first.");
            return;
        }
        int asked = 0;
        List<String> refused = new ArrayList<>();
        for (ConsumerDeadLetter letter : selected) {
            try {
                replays.replayOne(letter.id(), user.getName());
                asked++;
            } catch (ConsumerDeadLetterNotReplayableException | ConsumerDeadLetterNotFoundException notAnymore) {
                refused.add(Long.toString(letter.id()));
            } catch (RuntimeException e) {
                Messages.unavailable("The database", e);
                break;
            }
        }
        Messages.info("Asked to replay " + asked + " record(s), each to its own consumer group." + (refused.isEmpty() ? ""
                : " Not replayed (no longer waiting): " + String.join(", ", refused) + "."));
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
        if (!allowed()) {
            return;
        }
        try {
            ConsumerReplayResult result = replays.replayMatching(filter(), false, user.getName());
            Messages.info("Asked to replay " + result.requested() + " of " + result.matched()
                    + " matching record(s), those last changed before " + result.cutoff() + ".");
        } catch (RuntimeException e) {
            Messages.unavailable("The database", e);
        }
        refresh();
    }

    private boolean allowed() {
        if (!user.isOperator()) {
            Messages.error("Only operators can replay records.");
            return false;
        }
        return true;
    }

    private void replayOne(long id) {
        try {
            String consumerGroup = replays.replayOne(id, user.getName());
            Messages.info("Asked to replay record " + id + " to " + consumerGroup + ".");
        } catch (ConsumerDeadLetterNotReplayableException | ConsumerDeadLetterNotFoundException refused) {
            Messages.error(refused.getMessage());
        } catch (RuntimeException e) {
            Messages.unavailable("The database", e);
        }
    }

    private void refresh() {
        groups = null;
        selected = new ArrayList<>();
        if (group != null && getGroups().stream().noneMatch(group::equals)) {
            group = getGroups().stream().filter(same -> same.consumerGroup().equals(group.consumerGroup())
                    && same.topic().equals(group.topic()) && same.errorClass().equals(group.errorClass()))
                    .findFirst().orElse(null);
        }
    }

    public String getGroupTitle() {
        return group == null ? "All consumer dead letters"
                : group.consumerGroup() + " on " + group.topic() + ": " + group.errorClass();
    }

    public ConsumerDeadLetterGroup getGroup() {
        return group;
    }

    public LazyConsumerDeadLetters getLetters() {
        return letters;
    }

    public List<ConsumerDeadLetter> getSelected() {
        return selected;
    }

    public void setSelected(List<ConsumerDeadLetter> selected) {
        this.selected = selected;
    }

    public int getMatched() {
        return matched;
    }
}
