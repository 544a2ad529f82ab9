package io.outboxrelay.console.security.boundary;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TransportCheckTest {

    @Test
    void httpsOnlyWithSecureCookiesAndAKeystoreOfItsOwnIsFine() {
        assertThat(TransportCheck.found("0.0.0.0", "-1", "true", "a-real-secret", false)).isEmpty();
        assertThat(TransportCheck.found("127.0.0.1", "9080", "true", "a-real-secret", false))
                .as("plain HTTP on loopback only, for a sidecar or a local proxy").isEmpty();
        assertThat(TransportCheck.found("0.0.0.0", "9080", "TRUE", "a-real-secret", true))
                .as("plain HTTP inside, TLS terminated by the proxy in front").isEmpty();
    }

    @Test
    void plainHttpToOtherHostsIsRefused() {
        assertThat(TransportCheck.found("0.0.0.0", "9080", "true", "a-real-secret", false)).singleElement()
                .asString().contains("HTTP_PORT 9080", "plain HTTP", "HTTP_PORT=-1");
        assertThat(TransportCheck.found("relay.example.com", "80", "true", "a-real-secret", false)).hasSize(1);
    }

    @Test
    void cookiesWithoutSecureAndTheLocalKeystorePasswordAreRefused() {
        assertThat(TransportCheck.found("0.0.0.0", "-1", "false", TransportCheck.LOCAL_KEYSTORE_PASSWORD, false))
                .hasSize(2)
                .anySatisfy(found -> assertThat(found).startsWith("SECURE_COOKIES"))
                .anySatisfy(found -> assertThat(found).startsWith("KEYSTORE_PASSWORD is the local default"));
        assertThat(TransportCheck.found("0.0.0.0", "-1", "true", " ", false)).singleElement().asString()
                .startsWith("KEYSTORE_PASSWORD is empty");
    }
}
