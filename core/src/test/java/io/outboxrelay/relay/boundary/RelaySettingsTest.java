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
    void anUnknownPublisherSaysWhichOnesThereAre() {
        assertThatThrownBy(() -> settings("debezium").publisher())
                .hasMessage("outbox.publisher is polling or cdc, not 'debezium'");
    }

    private static RelaySettings settings(String publisher) {
        RelaySettings settings = new RelaySettings();
        settings.publisher = publisher;
        settings.listen = true;
        settings.pollIntervalMs = 500;
        settings.handoverMs = 30_000;
        settings.cdcPollIntervalMs = 5_000;
        return settings;
    }
}
