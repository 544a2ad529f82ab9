package io.outboxrelay.faults;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import io.outboxrelay.support.Database;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static io.outboxrelay.faults.HostileInputIT.assertCalm;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who may do what, on the real server: every operator API route refuses anonymous and wrong
 * credentials with 401, every console page sends to the sign-in page, a forged cross-site form
 * post replays nothing, and no password ever reaches the server's logs.
 */
class AccessIT {

    private static final String SOME_EVENT = "/outbox/api/events/" + UUID.randomUUID();

    @Test
    void everyOperatorRouteAnswers401WithoutOrWithWrongCredentials() {
        Map<String, String> wrong = Map.of("Authorization", "Basic " + Base64.getEncoder()
                .encodeToString("operator:not-the-password".getBytes(StandardCharsets.UTF_8)));
        Map<String, String> garbage = Map.of("Authorization", "Basic %%%not-base64");
        List<HttpRequest.Builder> routes = List.of(
                get("/outbox/api/events"), get("/outbox/api/events?status=DLT"), get(SOME_EVENT), get("/outbox/api/lag"), get("/outbox/api/audit"),
                post(SOME_EVENT + "/replay", ""), post("/outbox/api/events/replay", "{\"dryRun\": true}"));
        int checked = 0;
        for (Map<String, String> credentials : List.of(Map.<String, String>of(), wrong, garbage)) {
            for (HttpRequest.Builder route : routes) {
                Answer answer = Api.send(route.copy(), credentials);
                assertThat(answer.status()).as(route.build().uri() + " with " + credentials.keySet()).isEqualTo(401);
                assertThat(answer.header("WWW-Authenticate")).startsWith("Basic");
                assertCalm(answer, route.build().uri().toString());
                checked++;
            }
        }
        assertThat(checked).isEqualTo(21);
    }

    @Test
    void everyConsolePageSendsAnonymousVisitorsToSignIn() {
        for (String page : List.of("/outbox/console/", "/outbox/console/index.xhtml", "/outbox/console/event.xhtml?id=" + UUID.randomUUID(),
                "/outbox/console/dead-letters.xhtml", "/outbox/console/lag.xhtml", "/outbox/console/audit.xhtml")) {
            Answer answer = Api.get(page);
            assertThat(answer.status()).as(page).isEqualTo(302);
            assertThat(answer.header("Location")).as(page).endsWith("/outbox/console/login.xhtml");
        }
        Answer login = Api.get("/outbox/console/login.xhtml");
        assertThat(login.status()).isEqualTo(200);
        assertThat(login.body()).contains("j_security_check", "j_password");
    }

    @Test
    void aForgedCrossSiteFormPostReplaysNothing() {
        UUID eventId = UUID.randomUUID();
        Database.update("""
                INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload, headers,
                                          status, attempts, last_error, next_attempt_at)
                VALUES (?, 'Forgery', ?, 'Forged', 'forgery.events', '{}'::jsonb, '{}'::jsonb, 'DLT', 3,
                        'x.Poison: no', now())""", eventId, "forgery-" + eventId);
        String session = signIn("operator", Api.OPERATOR_PASSWORD);

        // what another site's page could post: the form's field names, but no view state of ours
        Answer forged = Api.send(HttpRequest.newBuilder(Api.uri("/outbox/console/event.xhtml?id=" + eventId))
                        .POST(HttpRequest.BodyPublishers.ofString("actions=actions&actions%3Areplay=&jakarta.faces.ViewState=stolen"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .header("Origin", "http://evil.example")
                        .header("Cookie", session), Map.of());

        assertThat(forged.status()).as(forged.body()).isLessThan(500);
        assertThat(Database.rows("SELECT status, replay_count FROM outbox_event WHERE event_id = ?", eventId).get(0))
                .containsEntry("status", "DLT").containsEntry("replay_count", 0);
        assertThat(Database.count("SELECT count(*) FROM replay_audit WHERE event_id = ?", eventId)).isZero();
    }

    @Test
    void noPasswordReachesTheServersLogs() throws Exception {
        signIn("operator", "a-wrong-password-" + UUID.randomUUID());
        Api.get("/outbox/api/events", Map.of("Authorization", "Basic " + Base64.getEncoder()
                .encodeToString("viewer:another-wrong-one".getBytes(StandardCharsets.UTF_8))));
        Path logs = Path.of(System.getProperty("it.wlp.home"), "usr", "servers", System.getProperty("it.server.name"), "logs");

        try (Stream<Path> files = Files.walk(logs)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String text = Files.readString(file, StandardCharsets.ISO_8859_1);
                assertThat(text).as(file.getFileName().toString())
                        .doesNotContain(Api.OPERATOR_PASSWORD, Api.VIEWER_PASSWORD, "a-wrong-password-", "another-wrong-one");
            }
        }
    }

    /** Signs in through the form and returns the session cookies. */
    private static String signIn(String user, String password) {
        Answer page = Api.get("/outbox/console/");
        Answer signedIn = Api.send(HttpRequest.newBuilder(Api.uri("/j_security_check"))
                .POST(HttpRequest.BodyPublishers.ofString("j_username=" + user + "&j_password=" + password))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Cookie", cookies(page)), Map.of());
        return cookies(signedIn);
    }

    private static String cookies(Answer answer) {
        return answer.headers().getOrDefault("set-cookie", List.of()).stream()
                .map(cookie -> cookie.split(";", 2)[0])
                .filter(cookie -> !cookie.endsWith("=\"\"") && !cookie.endsWith("="))
                .reduce((a, b) -> a + "; " + b).orElse("");
    }

    private static HttpRequest.Builder get(String path) {
        return HttpRequest.newBuilder(Api.uri(path)).GET();
    }

    private static HttpRequest.Builder post(String path, String json) {
        return HttpRequest.newBuilder(Api.uri(path)).POST(HttpRequest.BodyPublishers.ofString(json))
                .header("Content-Type", "application/json");
    }
}
