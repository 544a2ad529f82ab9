package io.outboxrelay.profile.control;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class LocalDefaultsTest {

    @Test
    void theLocalStacksPasswordsAreRefused() {
        assertThat(LocalDefaults.found(Optional.of("outbox"), Optional.empty(), false, true))
                .singleElement().asString().startsWith("DB_PASSWORD is a local default");
        assertThat(LocalDefaults.found(Optional.of("postgres"), Optional.empty(), false, true)).hasSize(1);
        assertThat(LocalDefaults.found(Optional.empty(), Optional.empty(), false, true))
                .singleElement().asString().startsWith("DB_PASSWORD is empty");
    }

    @Test
    void theLocalUsersFileIsRefusedButTheServersDefaultIsNot() {
        assertThat(LocalDefaults.found(Optional.of("s3cret-from-vault"), Optional.of("/srv/app/local-users.xml"), false, true))
                .singleElement().asString().contains("LOCAL_USERS_FILE");
        assertThat(LocalDefaults.found(Optional.of("s3cret-from-vault"), Optional.of("no-local-users.xml"), false, true)).isEmpty();
    }

    @Test
    void demoTrafficIsRefused() {
        assertThat(LocalDefaults.found(Optional.of("s3cret-from-vault"), Optional.empty(), true, true))
                .singleElement().asString().contains("OUTBOX_DEMO_ENABLED");
    }

    @Test
    void ordersWithoutTheirEventsAreRefused() {
        assertThat(LocalDefaults.found(Optional.of("s3cret-from-vault"), Optional.empty(), false, false))
                .singleElement().asString().contains("OUTBOX_SAMPLE_ORDERS_APPEND_EVENTS");
    }

    @Test
    void everyLocalSettingIsNamedAtOnce() {
        assertThat(LocalDefaults.found(Optional.of("outbox"), Optional.of("local-users.xml"), true, false)).hasSize(4);
    }
}
