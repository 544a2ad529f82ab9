package io.outboxrelay.console.security.boundary;

import io.outboxrelay.profile.boundary.ProductionCheck;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The console and the operator API carry passwords and session cookies, so in the production profile the
 * server refuses to start while they would travel in plain text: plain HTTP served to other hosts than this
 * one, cookies without the Secure attribute, or the local keystore password. It reads the variables the
 * server.xml fragments name ({@code HTTP_HOST}, {@code HTTP_PORT}, {@code SECURE_COOKIES},
 * {@code KEYSTORE_PASSWORD}). Behind a proxy or ingress that terminates TLS, plain HTTP inside is declared
 * with {@code outbox.console.tls-terminated-by-proxy=true}.
 */
@ApplicationScoped
public class TransportCheck implements ProductionCheck {

    static final String LOCAL_KEYSTORE_PASSWORD = "outbox-relay-local";
    private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "localhost", "::1", "[::1]");

    @Inject
    @ConfigProperty(name = "HTTP_HOST", defaultValue = "127.0.0.1")
    String httpHost;

    @Inject
    @ConfigProperty(name = "HTTP_PORT", defaultValue = "9080")
    String httpPort;

    @Inject
    @ConfigProperty(name = "SECURE_COOKIES", defaultValue = "false")
    String secureCookies;

    @Inject
    @ConfigProperty(name = "KEYSTORE_PASSWORD", defaultValue = LOCAL_KEYSTORE_PASSWORD)
    String keystorePassword;

    @Inject
    @ConfigProperty(name = "outbox.console.tls-terminated-by-proxy", defaultValue = "false")
    boolean tlsProxy;

    @Override
    public List<String> localOnlySettings() {
        return found(httpHost, httpPort, secureCookies, keystorePassword, tlsProxy);
    }

    static List<String> found(String httpHost, String httpPort, String secureCookies, String keystorePassword,
                              boolean tlsProxy) {
        List<String> found = new ArrayList<>();
        String host = httpHost.trim().toLowerCase(Locale.ROOT);
        boolean plainHttp = !httpPort.trim().equals("-1");
        if (plainHttp && !LOOPBACK.contains(host) && !host.startsWith("127.") && !tlsProxy) {
            found.add("HTTP_PORT " + httpPort.trim() + " serves the console and the operator API in plain HTTP to other hosts"
                    + " (HTTP_HOST " + httpHost.trim() + "): serve HTTPS only (HTTP_PORT=-1), bind HTTP to 127.0.0.1, or,"
                    + " behind a proxy that terminates TLS, set outbox.console.tls-terminated-by-proxy=true");
        }
        if (!Boolean.parseBoolean(secureCookies.trim())) {
            found.add("SECURE_COOKIES is not true: the console's session and sign-in cookies could travel in plain HTTP");
        }
        if (keystorePassword.isBlank() || keystorePassword.equals(LOCAL_KEYSTORE_PASSWORD)) {
            found.add("KEYSTORE_PASSWORD is " + (keystorePassword.isBlank() ? "empty" : "the local default")
                    + ": give the server your certificate's keystore (KEYSTORE_FILE) and its password");
        }
        return found;
    }
}
