package io.outboxrelay.profile.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What of a server's settings belongs to a developer's machine only: the database password the
 * local stack uses and the local users file (whose passwords the run command generates).
 */
public final class LocalDefaults {

    /** Passwords of the local stack: the outbox role's and PostgreSQL's superuser's. */
    static final Set<String> LOCAL_DATABASE_PASSWORDS = Set.of("outbox", "postgres");
    /** What server.xml includes when no local users file is named. */
    static final String NO_LOCAL_USERS = "no-local-users.xml";

    private LocalDefaults() {
    }

    /** Each local-only setting found, as a sentence that says what to change; empty when there is none. */
    public static List<String> found(Optional<String> databasePassword, Optional<String> localUsersFile) {
        List<String> found = new ArrayList<>();
        databasePassword(databasePassword).ifPresent(found::add);
        localUsers(localUsersFile).ifPresent(found::add);
        return found;
    }

    /** The password of the data sources in outbox-relay.xml, if it is empty or the local stack's. */
    public static Optional<String> databasePassword(Optional<String> databasePassword) {
        String password = databasePassword.orElse("");
        if (password.isBlank() || LOCAL_DATABASE_PASSWORDS.contains(password)) {
            return Optional.of("DB_PASSWORD is " + (password.isBlank() ? "empty" : "a local default")
                    + ": set the production database's password");
        }
        return Optional.empty();
    }

    /** The local users file, if one is included. */
    public static Optional<String> localUsers(Optional<String> localUsersFile) {
        if (localUsersFile.filter(file -> !file.isBlank() && !file.endsWith(NO_LOCAL_USERS)).isPresent()) {
            return Optional.of("LOCAL_USERS_FILE includes the local development users: configure the server's own user"
                    + " registry (groups outbox-operators and outbox-viewers) and leave LOCAL_USERS_FILE unset");
        }
        return Optional.empty();
    }
}
