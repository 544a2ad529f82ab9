package io.outboxrelay.console;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Browser;
import io.outboxrelay.support.Database;
import io.outboxrelay.support.Kafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator console in a real headless Chromium against the real server: sign in, find an
 * event by its id, replay a dead letter and watch it get published, triage dead letters by
 * error class with a dry-run count before a bulk replay, see the lag charts drawn, and what a
 * viewer may not do, and that hostile names from Kafka and the database show as text and run nothing
 * (under the console's Content-Security-Policy, whose nonced scripts every step above also runs). Screenshots of each step go to target/screenshots.
 */
class ConsoleBrowserIT {

    private Browser browser;

    @BeforeEach
    void openBrowser() {
        Api.awaitReady(Duration.ofMinutes(3));
        browser = new Browser();
    }

    @AfterEach
    void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void anOperatorSignsInFindsADeadLetterByItsIdAndReplaysIt() {
        String topic = Kafka.uniqueTopic("console-replay");
        Kafka.createTopic(topic, 1);
        UUID eventId = deadLetter(topic, "DLT", "org.apache.kafka.common.errors.RecordTooLargeException");

        browser.open("/outbox/console/");
        assertThat(browser.currentPath()).as("the console asks to sign in first").startsWith("/outbox/console/login.xhtml");
        signIn("operator", Api.OPERATOR_PASSWORD);
        browser.screenshot("01-search");

        browser.find(By.id("search:query")).sendKeys(eventId.toString());
        browser.find(By.id("search:find")).click();
        browser.awaitText(By.id("eventId"), eventId.toString());
        assertThat(browser.find(By.id("status")).getText()).isEqualTo("DLT");
        assertThat(browser.find(By.id("lastError")).getText()).contains("RecordTooLargeException");
        assertThat(browser.find(By.id("payload")).getText()).contains("\"parcel\": \"fragile\"");
        browser.screenshot("02-event-dlt");

        browser.find(By.id("actions:replay")).click();
        browser.awaitText(By.id("messages"), "Replayed");
        Awaitility.await("the replayed event to be published").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    browser.driver().navigate().refresh();
                    return "SENT".equals(browser.find(By.id("status")).getText());
                });
        assertThat(browser.find(By.id("kafka")).getText()).startsWith("partition 0, offset 0");
        assertThat(browser.find(By.id("replays")).getText()).contains("operator", "this event alone");
        browser.screenshot("03-event-sent-after-replay");
    }

    @Test
    void deadLettersAreGroupedByErrorAndABulkReplayShowsItsDryRunCountFirst() {
        String topic = Kafka.uniqueTopic("console-bulk");
        Kafka.createTopic(topic, 1);
        String errorClass = "com.example.PoisonPill" + UUID.randomUUID().toString().replace("-", "");
        for (int i = 0; i < 3; i++) {
            deadLetter(topic, "DEAD", errorClass);
        }

        browser.open("/outbox/console/dead-letters.xhtml");
        signIn("operator", Api.OPERATOR_PASSWORD);
        WebElement group = browser.find(By.xpath("//tr[td//span[text()='" + errorClass + "']]"));
        assertThat(group.getText()).contains(topic, "DEAD", "3");
        group.findElement(By.cssSelector(".show-group")).click();
        browser.awaitText(By.id("groupTitle"), errorClass);
        browser.screenshot("04-dead-letters-group");

        browser.find(By.id("dead:replayAll")).click();
        browser.awaitText(By.id("matched"), "3");
        browser.screenshot("05-bulk-replay-dry-run");
        browser.find(By.id("dead:confirmReplay")).click();
        browser.awaitText(By.id("messages"), "Replayed 3 of 3");

        assertThat(Database.count("SELECT count(*) FROM outbox_event WHERE topic = ? AND replay_count = 1", topic))
                .isEqualTo(3);
        assertThat(Database.count("SELECT count(*) FROM replay_audit WHERE action = 'REPLAY_BULK' AND actor = 'operator'"
                + " AND filter->>'errorClass' = ?", errorClass)).isEqualTo(1);
    }

    @Test
    void anEventsTimelineFollowsItToItsConsumersAndAConsumerDeadLetterIsReplayedToItsGroupFromTheConsole() {
        Api.Answer created = Api.post("/api/orders", """
                {"customerId": "c-console", "lines": [{"sku": "CONSOLE-1", "quantity": 1, "unitPrice": 2.00}]}""");
        UUID eventId = UUID.fromString(created.json().getString("eventId"));
        Awaitility.await("both sample consumers to handle " + eventId).atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> Database.count("SELECT count(*) FROM consumed_event WHERE event_id = ?", eventId) == 2);
        // the notifications group also gave a delivery of the event up (say, a redelivery while its mail server was
        // down): a replay finds the event already handled, and has no second effect
        String errorClass = "com.example.MailServerDown" + UUID.randomUUID().toString().replace("-", "");
        Database.update("""
                INSERT INTO consumer_dead_letter (consumer_group, event_id, event_type, topic, kafka_partition, kafka_offset,
                       record_key, payload, headers, dlt_topic, error_class, error_message, attempts, first_failed_at,
                       last_failed_at, status)
                SELECT 'notifications', e.event_id, e.event_type, e.topic, e.kafka_partition, e.kafka_offset + 1000000,
                       e.aggregate_id, e.payload::text, jsonb_build_object('ce_id', e.event_id::text, 'ce_type', e.event_type),
                       'order.events.notifications.DLT', ?, 'connection refused', 5, now(), now(), 'DEAD_LETTERED'
                  FROM outbox_event_state e WHERE e.event_id = ?""", errorClass, eventId);

        browser.open("/outbox/console/event.xhtml?id=" + eventId);
        signIn("operator", Api.OPERATOR_PASSWORD);
        assertThat(browser.find(By.id("timeline")).findElements(By.cssSelector(".timeline-step .step")))
                .extracting(WebElement::getText)
                .containsExactly("APPENDED", "PUBLISHED", "CONSUMED", "CONSUMED", "CONSUMER_DEAD_LETTERED");
        assertThat(browser.find(By.id("consumers")).getText()).contains("inventory", "notifications", errorClass);
        browser.screenshot("09-event-timeline");

        browser.open("/outbox/console/consumer-dead-letters.xhtml");
        WebElement group = browser.find(By.xpath("//tr[td//span[text()='" + errorClass + "']]"));
        assertThat(group.getText()).contains("notifications", "order.events", "1");
        group.findElement(By.cssSelector(".show-group")).click();
        browser.awaitText(By.id("groupTitle"), errorClass);
        browser.find(By.cssSelector("[id='consumerDead:letters'] .replay-one")).click();
        browser.awaitText(By.id("messages"), "to notifications");
        browser.screenshot("10-consumer-replay-asked");

        Awaitility.await("the notifications group to replay the record").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> Database.count("SELECT count(*) FROM consumer_dead_letter WHERE error_class = ?"
                        + " AND status = 'REPLAYED' AND replay_outcome = 'DUPLICATE'", errorClass) == 1);
        assertThat(Database.count("SELECT count(*) FROM notification WHERE event_id = ?", eventId))
                .as("no second effect").isEqualTo(1);
        browser.open("/outbox/console/event.xhtml?id=" + eventId);
        assertThat(browser.find(By.id("timeline")).getText()).contains("CONSUMER_REPLAYED", "no second effect");
        browser.screenshot("11-event-timeline-after-consumer-replay");
    }

    @Test
    void theLagPageDrawsItsCharts() {
        browser.open("/outbox/console/lag.xhtml");
        signIn("viewer", Api.VIEWER_PASSWORD);

        browser.find(By.cssSelector("[id='lagForm:statusChart'] canvas"));
        Awaitility.await("the rows-by-status chart to be drawn").atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(chartLabels("lagForm:statusChart")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
                        .contains("SENT"));
        Object width = ((JavascriptExecutor) browser.driver()).executeScript(
                "return document.querySelector(arguments[0]).getBoundingClientRect().width;", "[id='lagForm:statusChart'] canvas");
        assertThat(((Number) width).doubleValue()).isGreaterThan(200);
        Object ages = chartLabels("lagForm:ageChart");
        assertThat(ages).as("the age chart opens with the server's history, not one point").isNotNull();
        assertThat((List<?>) ages).hasSizeGreaterThan(1);
        browser.screenshot("06-lag");
    }

    @Test
    void aViewerSeesDeadLettersButNoReplayAndAWrongPasswordIsTurnedAway() {
        UUID eventId = deadLetter(Kafka.uniqueTopic("console-viewer"), "DEAD", "com.example.ViewerOnly");

        browser.open("/outbox/console/event.xhtml?id=" + eventId);
        signIn("viewer", "not-the-password");
        assertThat(browser.find(By.id("loginError")).getText()).contains("did not match");

        signIn("viewer", Api.VIEWER_PASSWORD);
        browser.open("/outbox/console/event.xhtml?id=" + eventId);
        assertThat(browser.find(By.id("status")).getText()).isEqualTo("DEAD");
        List<WebElement> replayButtons = browser.driver().findElements(By.id("actions:replay"));
        assertThat(replayButtons).as("a viewer gets no replay button").isEmpty();
        assertThat(browser.find(By.id("who")).getText()).contains("viewer");
        browser.screenshot("07-viewer-event");

        browser.find(By.id("session:signOut")).click(); // a PrimeFaces link: its handler is a nonced script
        Awaitility.await("signed out").atMost(Duration.ofSeconds(30))
                .until(() -> browser.currentPath().startsWith("/outbox/console/login.xhtml")
                        || !browser.driver().findElements(By.id("j_username")).isEmpty());
        browser.open("/outbox/console/event.xhtml?id=" + eventId);
        assertThat(browser.currentPath()).as("signed out for good").startsWith("/outbox/console/login.xhtml");
    }

    @Test
    void hostileNamesFromKafkaAndTheDatabaseShowAsTextAndRunNothing() throws Exception {
        String marker = UUID.randomUUID().toString().substring(0, 8);
        String hostile = "</script><script>window.__xss='" + marker + "'</script><img src=x onerror=\"window.__xss='" + marker + "'\">";
        String topic = Kafka.uniqueTopic("console-hostile"); // Kafka allows only [a-zA-Z0-9._-] in topic names
        Kafka.createTopic(topic, 1);
        String group = "lag-" + marker + hostile;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", Kafka.BOOTSTRAP))) {
            admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0)))
                    .all().get(30, TimeUnit.SECONDS);
        }
        UUID eventId = UUID.randomUUID();
        Database.update("""
                INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload, headers,
                                          status, attempts, last_error, next_attempt_at, first_failed_at)
                VALUES (?, ?, ?, ?, ?, jsonb_build_object('note', ?::text), jsonb_build_object('x-note', ?::text),
                        'DEAD', 3, ?, now(), now())""",
                eventId, hostile, hostile, hostile, hostile, hostile, hostile, "com.example.Hostile" + marker + ": " + hostile);

        browser.open("/outbox/console/lag.xhtml");
        signIn("viewer", Api.VIEWER_PASSWORD);
        Awaitility.await("the hostile group in the lag table").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                .ignoreExceptionsInstanceOf(StaleElementReferenceException.class) // the table is re-rendered every 5 s
                .until(() -> {
                    browser.driver().navigate().refresh();
                    return browser.find(By.id("lagForm:partitions")).getText().contains("lag-" + marker + hostile);
                });
        browser.find(By.cssSelector("[id='lagForm:consumerChart'] canvas"));
        Object labels = chartLabels("lagForm:consumerChart");
        assertThat(labels).as("the chart has the name as its label, as text")
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST).contains(group + " · " + topic);
        assertNothingInjected(marker, "lag page");
        browser.screenshot("08-hostile-lag");

        browser.open("/outbox/console/event.xhtml?id=" + eventId);
        assertThat(browser.find(By.id("lastError")).getText()).contains(hostile);
        assertThat(browser.find(By.id("payload")).getText()).contains("window.__xss");
        assertThat(browser.find(By.id("detail")).getText()).contains(hostile + " / " + hostile);
        assertNothingInjected(marker, "event page");

        browser.open("/outbox/console/dead-letters.xhtml");
        assertThat(browser.find(By.xpath("//tr[td//span[starts-with(text(), 'com.example.Hostile" + marker + "')]]")).getText())
                .contains("com.example.Hostile" + marker);
        assertNothingInjected(marker, "dead letters page");

        browser.open("/outbox/console/"); // newest first: the hostile event is on the first page
        assertThat(browser.find(By.id("search:events")).getText()).contains(hostile + " / " + hostile);
        assertNothingInjected(marker, "search page");
    }

    /** No script of the hostile text ran, and none of its markup became an element of the page. */
    private void assertNothingInjected(String marker, String page) {
        JavascriptExecutor script = (JavascriptExecutor) browser.driver();
        assertThat(script.executeScript("return window.__xss === undefined ? null : String(window.__xss);")).as(page).isNull();
        assertThat(script.executeScript("""
                return Array.from(document.querySelectorAll('script')).filter(s => s.textContent.trim().startsWith('window.__xss')).length
                     + document.querySelectorAll('img[src="x"]').length;""")).as(page + ": injected elements").isEqualTo(0L);
        assertThat(browser.driver().getPageSource()).as(page).doesNotContain("<img src=\"x\"", "<img src=x");
    }

    private void signIn(String user, String password) {
        browser.find(By.id("j_username")).sendKeys(user);
        browser.find(By.id("j_password")).sendKeys(password);
        browser.find(By.id("signIn")).click();
    }

    private static UUID deadLetter(String topic, String status, String errorClass) {
        UUID eventId = UUID.randomUUID();
        Database.update("""
                INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload, headers,
                                          status, attempts, last_error, next_attempt_at, first_failed_at)
                VALUES (?, 'Parcel', ?, 'ParcelLost', ?, '{"parcel": "fragile"}'::jsonb, '{"correlation-id": "it-console"}'::jsonb,
                        ?, 3, ? || ': the broker refused it', now(), now())""",
                eventId, "parcel-" + eventId, topic, status, errorClass);
        return eventId;
    }

    /**
     * The labels of the chart drawn in the canvas of this component, or null before it is drawn. The canvas is looked up
     * in the same script: the lag page re-renders its charts every 5 s, so a canvas found earlier may be gone.
     */
    private Object chartLabels(String componentId) {
        return ((JavascriptExecutor) browser.driver()).executeScript("""
                var canvas = document.querySelector(arguments[0]);
                var chart = canvas ? Chart.getChart(canvas) : null;
                return chart ? chart.data.labels : null;""", "[id='" + componentId + "'] canvas");
    }
}
