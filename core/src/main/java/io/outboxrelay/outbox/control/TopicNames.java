package io.outboxrelay.outbox.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.Config;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Decides the Kafka topic of an event from its aggregate type: {@code outbox.topic.<AggregateType>}
 * when configured, otherwise the aggregate type in kebab case plus {@code .events}
 * ({@code Order} → {@code order.events}, {@code CustomerAccount} → {@code customer-account.events}).
 * Each aggregate type's topic is decided once and remembered (the append asks for it every time): a change of
 * {@code outbox.topic.<AggregateType>} takes effect when the application restarts.
 */
@ApplicationScoped
public class TopicNames {

    private static final Pattern LEGAL_TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    private static final Pattern WORD_BOUNDARY = Pattern.compile("(?<=[a-z0-9])(?=[A-Z])|[\\s_]+");
    /** More aggregate types than this and the remembered topics are forgotten, to be decided again. */
    static final int MOST_REMEMBERED = 10_000;

    private Function<String, Optional<String>> settings;
    private final Map<String, String> decided = new ConcurrentHashMap<>();

    protected TopicNames() {
        // CDI proxy
    }

    @Inject
    public TopicNames(Config config) {
        this(key -> config.getOptionalValue(key, String.class));
    }

    TopicNames(Function<String, Optional<String>> settings) {
        this.settings = settings;
    }

    public String topicFor(String aggregateType) {
        if (decided.size() >= MOST_REMEMBERED) {
            decided.clear();
        }
        return decided.computeIfAbsent(aggregateType, this::decide); // an illegal topic throws and is not remembered
    }

    private String decide(String aggregateType) {
        String topic = configured(aggregateType).orElseGet(() -> derived(aggregateType));
        if (!LEGAL_TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
            throw new IllegalArgumentException("'" + topic + "' is not a legal Kafka topic name (aggregate type '"
                    + aggregateType + "')");
        }
        return topic;
    }

    private Optional<String> configured(String aggregateType) {
        return settings.apply("outbox.topic." + aggregateType)
                .map(String::trim)
                .filter(topic -> !topic.isEmpty());
    }

    static String derived(String aggregateType) {
        return WORD_BOUNDARY.matcher(aggregateType.trim()).replaceAll("-").toLowerCase(Locale.ROOT) + ".events";
    }
}
