package io.outboxrelay.profile.control;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class LocalDefaultsTest {

    @Test
    void theLocalStacksPasswordsAreRefused() {
        assertThat(LocalDefaults.found(Optional.of("outbox"), Optional.empty()))
                .singleElement().asString().startsWith("DB_PASSWORD is a local default");
        assertThat(LocalDefaults.found(Optional.of("postgres"), Optional.empty())).hasSize(1);
        assertThat(LocalDefaults.found(Optional.empty(), Optional.empty()))
                .singleElement().asString().startsWith("DB_PASSWORD is empty");
    }

    @Test
    void theLocalUsersFileIsRefusedButTheServersDefaultIsNot() {
        assertThat(LocalDefaults.found(Optional.of("s3cret-from-vault"), Optional.of("/srv/app/local-users.xml")))
                .singleElement().asString().contains("LOCAL_USERS_FILE");
        assertThat(LocalDefaults.found(Optional.of("s3cret-from-vault"), Optional.of("no-local-users.xml"))).isEmpty();
    }

    @Test
    void everyLocalSettingIsNamedAtOnce() {
        assertThat(LocalDefaults.found(Optional.of("outbox"), Optional.of("local-users.xml"))).hasSize(2);
    }
}
