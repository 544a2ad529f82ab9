package io.outboxrelay.database.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * The outbox's data sources, named by configuration so that an application keeps its own JNDI names:
 * {@code outbox.datasource} is the JTA data source the append joins (the application's own, so the event
 * commits with its business rows); {@code outbox.datasource.non-transactional} serves the relay's, the
 * consumers' bookkeeping and the migrations' short statements of their own.
 */
@ApplicationScoped
public class OutboxDataSources {

    @Inject
    @ConfigProperty(name = "outbox.datasource", defaultValue = "jdbc/outbox")
    String transactionalName;

    @Inject
    @ConfigProperty(name = "outbox.datasource.non-transactional", defaultValue = "jdbc/outboxNonTx")
    String nonTransactionalName;

    private volatile DataSource transactional;
    private volatile DataSource nonTransactional;

    /** Connections from it join the caller's JTA transaction. */
    public DataSource transactional() {
        DataSource found = transactional;
        if (found == null) {
            transactional = found = lookup(transactionalName, "outbox.datasource");
        }
        return found;
    }

    /** Connections from it run their own statements, never a caller's transaction. */
    public DataSource nonTransactional() {
        DataSource found = nonTransactional;
        if (found == null) {
            nonTransactional = found = lookup(nonTransactionalName, "outbox.datasource.non-transactional");
        }
        return found;
    }

    private static DataSource lookup(String name, String key) {
        try {
            return InitialContext.doLookup(name);
        } catch (NamingException | ClassCastException missing) {
            throw new IllegalStateException("No data source '" + name + "' (configuration key " + key
                    + "): define it in server.xml or set the key to the JNDI name of yours", missing);
        }
    }
}
