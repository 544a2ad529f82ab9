package io.outboxrelay.console.pages.control;

import io.outboxrelay.console.consumers.boundary.ConsumerDeadLetterQueries;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetter;
import io.outboxrelay.console.consumers.entity.ConsumerDeadLetterFilter;
import org.primefaces.model.FilterMeta;
import org.primefaces.model.LazyDataModel;
import org.primefaces.model.SortMeta;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Consumer dead letters for a PrimeFaces table, one page at a time from the database, newest first. */
public class LazyConsumerDeadLetters extends LazyDataModel<ConsumerDeadLetter> {

    private final ConsumerDeadLetterQueries queries;
    private final Supplier<ConsumerDeadLetterFilter> filter;

    public LazyConsumerDeadLetters(ConsumerDeadLetterQueries queries, Supplier<ConsumerDeadLetterFilter> filter) {
        this.queries = queries;
        this.filter = filter;
    }

    @Override
    public int count(Map<String, FilterMeta> filterBy) {
        try {
            return (int) Math.min(Integer.MAX_VALUE, queries.count(filter.get()));
        } catch (SQLException e) {
            throw new IllegalStateException("the database did not answer", e);
        }
    }

    @Override
    public List<ConsumerDeadLetter> load(int first, int pageSize, Map<String, SortMeta> sortBy, Map<String, FilterMeta> filterBy) {
        try {
            return queries.page(filter.get(), first, pageSize);
        } catch (SQLException e) {
            throw new IllegalStateException("the database did not answer", e);
        }
    }

    @Override
    public String getRowKey(ConsumerDeadLetter letter) {
        return Long.toString(letter.id());
    }

    @Override
    public ConsumerDeadLetter getRowData(String rowKey) {
        List<ConsumerDeadLetter> page = getWrappedData();
        return page == null ? null : page.stream().filter(letter -> getRowKey(letter).equals(rowKey)).findFirst().orElse(null);
    }
}
