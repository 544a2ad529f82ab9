package io.outboxrelay.console.events.control;

import io.outboxrelay.console.consumers.entity.ConsumerDeadLetter;
import io.outboxrelay.console.events.entity.AuditEntry;
import io.outboxrelay.console.events.entity.ConsumerStory;
import io.outboxrelay.console.events.entity.EventDetail;
import io.outboxrelay.console.events.entity.TimelineEntry;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * An event's story as one list, oldest first: appended, publishing failures, replays, published (where),
 * dead-lettered, and per consumer group consumed, duplicates skipped, dead-lettered, replayed. Steps at the
 * same instant keep this order. The relay records a publication once it has the acknowledgements, which a
 * fast consumer can beat by a few milliseconds: what a consumer did is listed after the publication it
 * followed from, each step with the time it was recorded at.
 */
public final class Timeline {

    private Timeline() {
    }

    /** How much later than a consumer the relay may record a publication (it waits for the whole batch's acks). */
    private static final Duration RECORDING_LAG = Duration.ofSeconds(5);

    /** A step and the time it is listed by. */
    private record Step(TimelineEntry entry, OffsetDateTime listedAt) {
    }

    public static List<TimelineEntry> of(EventDetail event) {
        List<Step> steps = new ArrayList<>();
        add(steps, event.createdAt(), "APPENDED", event.aggregateType() + " / " + event.aggregateId(),
                "written to the outbox for " + event.topic());
        if (event.firstFailedAt() != null) {
            add(steps, event.firstFailedAt(), "PUBLISH_FAILED", "relay", "first failed attempt; " + event.attempts()
                    + " attempt(s) so far" + (event.lastError() == null ? "" : "; last error: " + event.lastError()));
        }
        for (AuditEntry replay : event.replays()) {
            add(steps, replay.at(), "REPLAY_ASKED", replay.actor(), replay.what());
        }
        if (event.publishedAt() != null) {
            add(steps, event.publishedAt(), "PUBLISHED", "relay", event.topic() + " partition " + event.kafkaPartition()
                    + ", offset " + event.kafkaOffset());
        }
        switch (String.valueOf(event.status())) {
            case "DLT" -> add(steps, event.updatedAt(), "DEAD_LETTERED", "relay", "to " + event.topic() + ".DLT after "
                    + event.attempts() + " attempt(s)");
            case "DEAD" -> add(steps, event.updatedAt(), "DEAD", "relay", "neither " + event.topic()
                    + " nor its dead-letter topic took it; waits for an operator");
            default -> { }
        }
        add(steps, event.archivedAt(), "ARCHIVED", "retention", "moved to outbox_event_archive");
        List<Step> consumed = new ArrayList<>();
        for (ConsumerStory consumer : event.consumers()) {
            consumerSteps(consumed, consumer);
        }
        OffsetDateTime published = event.publishedAt();
        for (Step step : consumed) {
            boolean beatThePublication = published != null && step.listedAt().isBefore(published)
                    && step.listedAt().isAfter(published.minus(RECORDING_LAG));
            steps.add(beatThePublication ? new Step(step.entry(), published) : step);
        }
        steps.sort(Comparator.comparing(Step::listedAt)); // stable: ties keep the order above
        return steps.stream().map(Step::entry).toList();
    }

    private static void consumerSteps(List<Step> steps, ConsumerStory consumer) {
        String group = consumer.consumerGroup();
        for (ConsumerDeadLetter letter : consumer.deadLetters()) {
            add(steps, letter.createdAt(), "CONSUMER_DEAD_LETTERED", group, "gave the record " + letter.topic() + "-"
                    + letter.partition() + "@" + letter.offset() + " up after " + letter.attempts() + " attempt(s): "
                    + letter.errorClass() + (letter.errorMessage() == null ? "" : ": " + letter.errorMessage())
                    + "; copy on " + letter.dltTopic() + "; now " + letter.status());
            add(steps, letter.replayedAt(), "CONSUMER_REPLAYED", group, "DUPLICATE".equals(letter.replayOutcome())
                    ? "replayed; the group had already handled the event, so no second effect" : "replayed and handled");
        }
        if (consumer.processedAt() != null) {
            add(steps, consumer.processedAt(), "CONSUMED", group, consumer.topic() == null ? "handled"
                    : "handled " + consumer.topic() + "-" + consumer.partition() + "@" + consumer.offset());
        }
        if (consumer.duplicates() > 0) {
            add(steps, consumer.lastDuplicateAt(), "DUPLICATES_SKIPPED", group, consumer.duplicates()
                    + " more deliver" + (consumer.duplicates() == 1 ? "y" : "ies") + " skipped as duplicate (the last shown)");
        }
    }

    private static void add(List<Step> steps, OffsetDateTime at, String what, String who, String detail) {
        if (at != null) {
            steps.add(new Step(new TimelineEntry(at, what, who, detail), at));
        }
    }
}
