package io.outboxrelay.relay.control;

import io.outboxrelay.database.boundary.OutboxDataSources;

import javax.sql.DataSource;
import java.lang.reflect.Proxy;
import java.sql.Connection;

/** Hands a relay component the test's connection, and keeps it open when the component is done with it. */
final class OneConnection extends OutboxDataSources {

    private final DataSource dataSource;

    OneConnection(Connection connection) {
        Connection kept = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, arguments) ->
                        method.getName().equals("close") ? null : method.invoke(connection, arguments));
        dataSource = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, arguments) -> {
                    if (method.getName().equals("getConnection")) {
                        return kept;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Override
    public DataSource nonTransactional() {
        return dataSource;
    }
}
