package io.outboxrelay.faults;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.LibertyServer;
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
 * post replays nothing, no other site's page can make a signed-in browser change anything through the
 * API, the answers carry the headers that keep browsers safe, and no password ever reaches the server's logs.
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
        UUID eventId = deadLetter("Forgery");
        String session = signIn("operator", Api.OPERATOR_PASSWORD);

        // what another site's page could post: the form's field names, but no view state of ours
        Answer forged = Api.send(HttpRequest.newBuilder(Api.uri("/outbox/console/event.xhtml?id=" + eventId))
                        .POST(HttpRequest.BodyPublishers.ofString("actions=actions&actions%3Areplay=&jakarta.faces.ViewState=stolen"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .header("Origin", "http://evil.example")
                        .header("Cookie", session), Map.of());

        assertThat(forged.status()).as(forged.body()).isLessThan(500);
        assertThat(Database.rows("SELECT status, replay_count FROM outbox_event_state WHERE event_id = ?", eventId).get(0))
                .containsEntry("status", "DLT").containsEntry("replay_count", 0);
        assertThat(Database.count("SELECT count(*) FROM replay_audit WHERE event_id = ?", eventId)).isZero();
    }

    @Test
    void crossSiteRequestsToEveryApiChangeChangeNothingWhileTheConsoleIsSignedIn() {
        UUID eventId = deadLetter("CrossSite");
        String session = signIn("operator", Api.OPERATOR_PASSWORD);
        String single = "/outbox/api/events/" + eventId + "/replay";
        String bulk = "/outbox/api/events/replay";
        String filter = "{\"aggregateType\": \"CrossSite\", \"aggregateId\": \"forgery-" + eventId + "\"}";
        String cachedBasic = Api.OPERATOR.get("Authorization");

        // what other sites' pages can make a signed-in browser send: forms (any of the three form encodings),
        // a script's "simple" request without a preflight, and requests carrying remembered Basic credentials
        List<HttpRequest.Builder> forged = List.of(
                crossSite(single, "application/x-www-form-urlencoded", "", "Cookie", session),
                crossSite(bulk, "application/x-www-form-urlencoded", "aggregateType=CrossSite", "Cookie", session),
                crossSite(bulk, "text/plain", filter, "Cookie", session),
                crossSite(bulk, "multipart/form-data; boundary=x", "--x--", "Cookie", session),
                crossSite(single, "text/plain", "", "Authorization", cachedBasic),
                crossSite(bulk, "application/json", filter, "Authorization", cachedBasic).header("Sec-Fetch-Site", "cross-site"),
                crossSite(single, "application/json", "", "Cookie", session).header("Sec-Fetch-Site", "same-site"),
                // a browser too old to name the origin: the form encoding alone is refused
                HttpRequest.newBuilder(Api.uri(single)).POST(HttpRequest.BodyPublishers.noBody()).header("Cookie", session),
                HttpRequest.newBuilder(Api.uri(bulk)).POST(HttpRequest.BodyPublishers.ofString(filter))
                        .header("Content-Type", "text/plain;charset=UTF-8").header("Cookie", session));
        for (HttpRequest.Builder request : forged) {
            Answer answer = Api.send(request.copy(), Map.of());
            String what = request.build().uri() + " " + request.build().headers().map();
            assertThat(answer.status()).as(what + ": " + answer.body()).isIn(403, 415);
            assertThat(answer.header("Content-Type")).as(what).startsWith("application/problem+json");
            assertCalm(answer, what);
        }
        assertThat(Database.rows("SELECT status, replay_count FROM outbox_event_state WHERE event_id = ?", eventId).get(0))
                .containsEntry("status", "DLT").containsEntry("replay_count", 0);
        assertThat(Database.count("SELECT count(*) FROM replay_audit WHERE event_id = ? OR filter->>'aggregateType' = 'CrossSite'",
                eventId)).isZero();

        // the same change from a program (JSON, the operator's own credentials, this site's origin) goes through
        Answer replayed = Api.send(HttpRequest.newBuilder(Api.uri(single)).POST(HttpRequest.BodyPublishers.noBody())
                .header("Content-Type", "application/json").header("Origin", Api.BASE_URL), Api.OPERATOR);
        assertThat(replayed.status()).as(replayed.body()).isEqualTo(200);
        assertThat(Database.count("SELECT count(*) FROM replay_audit WHERE event_id = ?", eventId)).isEqualTo(1);
    }

    @Test
    void theConsolesLoginCookiesAreSameSite() {
        Answer first = Api.get("/outbox/console/");
        Answer page = Api.send(HttpRequest.newBuilder(Api.uri("/outbox/console/login.xhtml")).GET()
                .header("Cookie", cookies(first)), Map.of());
        Answer signedIn = Api.send(HttpRequest.newBuilder(Api.uri("/j_security_check"))
                .POST(HttpRequest.BodyPublishers.ofString("j_username=viewer&j_password=" + Api.VIEWER_PASSWORD))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Cookie", cookies(first) + "; " + cookies(page)), Map.of());

        List<String> setCookies = Stream.of(first, page, signedIn)
                .flatMap(answer -> answer.headers().getOrDefault("set-cookie", List.of()).stream())
                .filter(cookie -> cookie.startsWith("JSESSIONID=") || cookie.startsWith("LtpaToken2="))
                .toList();
        assertThat(setCookies).as("the session and the sign-in cookie")
                .anySatisfy(cookie -> assertThat(cookie).startsWith("JSESSIONID="))
                .anySatisfy(cookie -> assertThat(cookie).startsWith("LtpaToken2="))
                .allSatisfy(cookie -> assertThat(cookie).containsIgnoringCase("SameSite=Lax").containsIgnoringCase("HttpOnly"));
    }

    @Test
    void consoleAndApiAnswersForbidFramingSniffingAndScriptsOfOthers() {
        Answer login = Api.get("/outbox/console/login.xhtml");
        Answer api = Api.get("/outbox/api/events", Api.VIEWER);
        Answer refused = Api.get("/outbox/api/events");
        for (Answer answer : List.of(login, api, refused)) {
            assertThat(answer.header("X-Frame-Options")).isEqualTo("DENY");
            assertThat(answer.header("X-Content-Type-Options")).isEqualTo("nosniff");
            assertThat(answer.header("Referrer-Policy")).isEqualTo("same-origin");
            assertThat(answer.header("Strict-Transport-Security")).as("only over HTTPS").isNull();
        }
        assertThat(login.header("Content-Security-Policy")).contains("frame-ancestors 'none'", "object-src 'none'")
                .containsPattern("script-src 'self' 'nonce-[^']+';?$").doesNotContain("unsafe-inline' 'nonce", "unsafe-eval");
        assertThat(login.body()).containsPattern("<script[^>]* nonce=");
        assertThat(api.header("Content-Security-Policy")).startsWith("default-src 'none'").contains("frame-ancestors 'none'");
    }

    @Test
    void noPasswordReachesTheServersLogs() throws Exception {
        signIn("operator", "a-wrong-password-" + UUID.randomUUID());
        Api.get("/outbox/api/events", Map.of("Authorization", "Basic " + Base64.getEncoder()
                .encodeToString("viewer:another-wrong-one".getBytes(StandardCharsets.UTF_8))));
        Path logs = LibertyServer.logs(System.getProperty("it.server.name"));

        try (Stream<Path> files = Files.walk(logs)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String text = Files.readString(file, StandardCharsets.ISO_8859_1);
                assertThat(text).as(file.getFileName().toString())
                        .doesNotContain(Api.OPERATOR_PASSWORD, Api.VIEWER_PASSWORD, "a-wrong-password-", "another-wrong-one");
            }
        }
    }

    private static UUID deadLetter(String aggregateType) {
        UUID eventId = UUID.randomUUID();
        Database.update("""
                INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload, headers,
                                          status, attempts, last_error, next_attempt_at)
                VALUES (?, ?, ?, 'Forged', 'forgery.events', '{}'::jsonb, '{}'::jsonb, 'DLT', 3,
                        'x.Poison: no', now())""", eventId, aggregateType, "forgery-" + eventId);
        return eventId;
    }

    private static HttpRequest.Builder crossSite(String path, String contentType, String body, String credential, String value) {
        return HttpRequest.newBuilder(Api.uri(path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", contentType)
                .header("Origin", "http://evil.example")
                .header(credential, value);
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
