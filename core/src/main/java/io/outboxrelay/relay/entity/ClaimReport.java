package io.outboxrelay.relay.entity;

import java.time.Duration;

/**
 * One claim of the relay, fired after every claim, also one that found nothing (a CDI event the metrics
 * listen to): how the relay looked for events, how many it leased and how long the claim's statements took.
 * An empty claim costs too: the polling relay's at the end of every drain, CDC mode's safety net's every
 * few seconds while the stream keeps up.
 */
public record ClaimReport(RoundReport.Path path, int claimed, Duration duration) {
}
