package io.outboxrelay.relay.boundary;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RelaySettingsTest {

    @Test
    void pollingHandsNothingOverListensAndPollsAsConfigured() {
        RelaySettings settings = settings("polling");

        assertThat(settings.publisher()).isEqualTo(RelaySettings.Publisher.POLLING);
        assertThat(settings.handover()).isZero();
        assertThat(settings.listen()).isTrue();
        assertThat(settings.pollInterval()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void inCdcModeThePollingRelayIsTheSafetyNetThatWaitsTheHandoverPollsLessAndDoesNotListen() {
        RelaySettings settings = settings(" CDC ");

        assertThat(settings.publisher()).isEqualTo(RelaySettings.Publisher.CDC);
        assertThat(settings.handover()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.listen()).isFalse();
        assertThat(settings.pollInterval()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void inConnectModeTheRelayNeitherListensNorHandsOverAndFollowsTheEventsTopics() {
        RelaySettings settings = settings("connect");

        assertThat(settings.publisher()).isEqualTo(RelaySettings.Publisher.CONNECT);
        assertThat(settings.listen()).isFalse();
        assertThat(settings.handover()).isZero();
        assertThat(settings.connectTopics().matcher("order.events").matches()).isTrue();
        assertThat(settings.connectTopics().matcher("order.events.DLT").matches()).isFalse();
        assertThat(settings.connectTopics().matcher("__consumer_offsets").matches()).isFalse();
    }

    @Test
    void anUnknownPublisherSaysWhichOnesThereAre() {
        assertThatThrownBy(() -> settings("debezium").publisher())
                .hasMessage("outbox.publisher is polling, cdc or connect, not 'debezium'");
    }

    @Test
    void aTopicPatternThatIsNoRegularExpressionSaysSo() {
        RelaySettings settings = settings("connect");
        settings.connectTopics = "orders.(events";

        assertThatThrownBy(settings::connectTopics).hasMessageStartingWith("outbox.connect.topics is not a regular expression");
    }

    private static RelaySettings settings(String publisher) {
        RelaySettings settings = new RelaySettings();
        settings.publisher = publisher;
        settings.listen = true;
        settings.pollIntervalMs = 500;
        settings.handoverMs = 30_000;
        settings.cdcPollIntervalMs = 5_000;
        settings.connectTopics = ".*\\.events";
        return settings;
    }
}
