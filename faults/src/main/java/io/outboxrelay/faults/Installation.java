package io.outboxrelay.faults;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the suite needs to lay out servers: an Open Liberty installation, the WAR and server.xml of
 * this project, the local users file, and a folder of its own for the servers (WLP_USER_DIR).
 */
record Installation(Path wlp, Path war, Path serverXml, Path localUsers, Path userDir) {

    /** The operator password of the servers the suite starts (local users file; never a production setting). */
    static final String OPERATOR_PASSWORD = "faults-operator-pw";

    Installation {
        for (Path required : new Path[] {wlp.resolve("bin/server"), war, serverXml, localUsers}) {
            if (!Files.exists(required)) {
                throw new IllegalArgumentException("missing " + required + " (build the project first: mvn package)");
            }
        }
    }

    /** The PostgreSQL driver this suite runs with, copied into every server as its JDBC driver. */
    Path jdbcDriver() {
        try {
            return Path.of(org.postgresql.Driver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
