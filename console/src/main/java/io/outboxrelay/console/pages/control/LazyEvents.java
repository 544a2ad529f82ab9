package io.outboxrelay.console.pages.control;

import io.outboxrelay.console.events.boundary.Events;
import io.outboxrelay.console.events.entity.EventFilter;
import io.outboxrelay.console.events.entity.EventSummary;
import org.primefaces.model.FilterMeta;
import org.primefaces.model.LazyDataModel;
import org.primefaces.model.SortMeta;
import org.primefaces.model.SortOrder;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Events for a PrimeFaces table, one page at a time from the database: newest first, or oldest
 * first when the table is sorted by creation time ascending. Counts stop at {@value #COUNT_CAP}.
 */
public class LazyEvents extends LazyDataModel<EventSummary> {

    public static final long COUNT_CAP = 10_000;

    private final Events queries;
    private final Supplier<EventFilter> filter;

    public LazyEvents(Events queries, Supplier<EventFilter> filter) {
        this.queries = queries;
        this.filter = filter;
    }

    @Override
    public int count(Map<String, FilterMeta> filterBy) {
        try {
            return (int) queries.countUpTo(filter.get(), COUNT_CAP);
        } catch (SQLException e) {
            throw new IllegalStateException("the database did not answer", e);
        }
    }

    @Override
    public List<EventSummary> load(int first, int pageSize, Map<String, SortMeta> sortBy, Map<String, FilterMeta> filterBy) {
        boolean oldestFirst = sortBy.values().stream()
                .anyMatch(sort -> "createdAt".equals(sort.getField()) && sort.getOrder() == SortOrder.ASCENDING);
        try {
            return queries.page(filter.get(), first, pageSize, oldestFirst);
        } catch (SQLException e) {
            throw new IllegalStateException("the database did not answer", e);
        }
    }

    @Override
    public String getRowKey(EventSummary event) {
        return event.eventId().toString();
    }

    @Override
    public EventSummary getRowData(String rowKey) {
        List<EventSummary> page = getWrappedData();
        return page == null ? null : page.stream().filter(event -> getRowKey(event).equals(rowKey)).findFirst().orElse(null);
    }
}
