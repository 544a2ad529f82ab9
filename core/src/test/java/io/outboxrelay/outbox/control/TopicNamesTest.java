package io.outboxrelay.outbox.control;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopicNamesTest {

    private final Map<String, String> settings = new java.util.HashMap<>();
    private final java.util.List<String> lookedUp = new java.util.ArrayList<>();
    private final TopicNames topics = new TopicNames(key -> {
        lookedUp.add(key);
        return Optional.ofNullable(settings.get(key));
    });

    @ParameterizedTest
    @CsvSource({
            "Order, order.events",
            "CustomerAccount, customer-account.events",
            "order_line, order-line.events",
            "HTTPRequest2Log, httprequest2-log.events"
    })
    void theTopicIsDerivedFromTheAggregateType(String aggregateType, String topic) {
        assertThat(topics.topicFor(aggregateType)).isEqualTo(topic);
    }

    @Test
    void aConfiguredTopicWinsOverTheDerivedOne() {
        settings.put("outbox.topic.Order", "sales.orders.v1");

        assertThat(topics.topicFor("Order")).isEqualTo("sales.orders.v1");
        assertThat(topics.topicFor("Invoice")).isEqualTo("invoice.events");
    }

    @Test
    void aTopicKafkaWouldRejectIsRefusedAtAppendTime() {
        settings.put("outbox.topic.Order", "orders/with/slashes");

        assertThatThrownBy(() -> topics.topicFor("Order"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a legal Kafka topic name");
        assertThatThrownBy(() -> topics.topicFor("Ünïcode"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eachAggregateTypesTopicIsLookedUpOnceNotAtEveryAppend() {
        settings.put("outbox.topic.Order", "sales.orders.v1");

        for (int append = 0; append < 3; append++) {
            assertThat(topics.topicFor("Order")).isEqualTo("sales.orders.v1");
            assertThat(topics.topicFor("Invoice")).isEqualTo("invoice.events");
        }

        assertThat(lookedUp).containsExactly("outbox.topic.Order", "outbox.topic.Invoice");
    }

    @Test
    void pastTheRememberedManyEveryTopicIsStillRight() {
        for (int type = 0; type < TopicNames.MOST_REMEMBERED + 10; type++) {
            assertThat(topics.topicFor("Type" + type)).isEqualTo("type" + type + ".events");
        }
        assertThat(topics.topicFor("Type0")).isEqualTo("type0.events");
    }

    @Test
    void anIllegalTopicIsRefusedAtEveryAppendNotRememberedAsDecided() {
        settings.put("outbox.topic.Order", "orders/with/slashes");

        for (int append = 0; append < 2; append++) {
            assertThatThrownBy(() -> topics.topicFor("Order")).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
