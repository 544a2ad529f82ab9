package io.outboxrelay.devstack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A PostgreSQL 17 server run directly as a detached {@code postgres} process (no launcher JVM), so
 * its pid is the postmaster's and stopping it stops every backend.
 */
final class Postgres extends Component {

    static final String PORT_KEY = "postgres.port";
    private static final String HOME_KEY = "postgres.home";
    static final String DATABASE = "outbox";
    static final String USER = "outbox";
    static final String PASSWORD = "outbox";

    /** Bootstrap superuser, for creating the application role and for debugging. */
    private static final String SUPERUSER = "postgres";
    private static final String SUPERUSER_PASSWORD = "postgres";

    /** Several application instances with their own pools share one server in tests. */
    private static final int MAX_CONNECTIONS = 300;

    private final ServerUser serverUser = ServerUser.forCurrentProcess();

    /** Server settings given with {@code --pg-setting}, passed as {@code -c key=value} at every start. */
    static final String SETTING_PREFIX = "postgres.setting.";

    Postgres(StackState state) {
        super("postgres", PORT_KEY, state);
    }

    private Path dataDir() {
        return home().resolve("postgres");
    }

    /** Where the binaries and the data live (see {@link #assignHome()}). */
    private Path home() {
        return state.get(HOME_KEY).map(Path::of).orElse(state.dir());
    }

    /**
     * Chooses the home on first use: the state directory, unless the server user cannot reach it
     * (root's home, say, when root runs the stack and PostgreSQL runs as nobody); then a fresh
     * directory under the system's temporary folder, remembered in the state.
     */
    void assignHome() {
        state.getOrCreate(HOME_KEY, () -> {
            try {
                if (serverUser.canReach(state.dir())) {
                    return state.dir().toString();
                }
                Path home = Files.createTempDirectory("outbox-relay-postgres-");
                Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx--x--x"));
                return home.toString();
            } catch (IOException e) {
                throw new DevStackException("cannot choose a home for PostgreSQL: " + e.getMessage(), e);
            }
        });
    }

    @Override
    protected List<String> commandLineMarkers() {
        return List.of(dataDir().toString());
    }

    /** SIGTERM would be a "smart" shutdown that waits for pooled clients to disconnect. */
    @Override
    protected String stopSignal() {
        return "INT";
    }

    @Override
    protected Path executable() {
        return home().resolve("pgsql").resolve("bin").resolve("postgres");
    }

    @Override
    protected ProcessHandle launch() {
        try {
            Path bin = PostgresBinaries.ensureUnpacked(home().resolve("pgsql"));
            initdbIfNeeded(bin);
            List<String> command = new java.util.ArrayList<>(List.of(
                    bin.resolve("postgres").toString(),
                    "-D", dataDir().toString(),
                    "-p", Integer.toString(port()),
                    "-c", "listen_addresses=" + Ports.LOOPBACK,
                    "-c", "unix_socket_directories=",
                    "-c", "max_connections=" + MAX_CONNECTIONS));
            state.withPrefix(SETTING_PREFIX).forEach((key, value) -> command.addAll(List.of("-c", key + "=" + value)));
            return ProcessControl.startDetached(serverUser.command(command), logFile(), home());
        } catch (IOException e) {
            throw new DevStackException("cannot prepare PostgreSQL in " + state.dir() + ": " + e.getMessage(), e);
        }
    }

    private void initdbIfNeeded(Path bin) throws IOException {
        if (Files.exists(dataDir().resolve("PG_VERSION"))) {
            return;
        }
        Files.createDirectories(dataDir());
        Files.setPosixFilePermissions(dataDir(), PosixFilePermissions.fromString("rwx------"));
        serverUser.own(dataDir());
        // initdb reads the password as the server user, who may not be us.
        Path passwordFile = home().resolve("initdb-password");
        Files.writeString(passwordFile, SUPERUSER_PASSWORD + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-r--r--"));
        try {
            ProcessControl.run(serverUser.command(List.of(
                    bin.resolve("initdb").toString(),
                    "-D", dataDir().toString(),
                    "-U", SUPERUSER,
                    "--pwfile=" + passwordFile,
                    "--auth-host=scram-sha-256",
                    "--auth-local=trust",
                    "--encoding=UTF8",
                    "--no-locale")), logFile(), home());
        } finally {
            Files.deleteIfExists(passwordFile);
        }
    }

    @Override
    protected void probe() throws SQLException {
        try (Connection admin = connect("postgres", SUPERUSER, SUPERUSER_PASSWORD)) {
            createApplicationDatabase(admin);
        }
        try (Connection app = connect(DATABASE, USER, PASSWORD);
             Statement statement = app.createStatement()) {
            statement.execute("SELECT 1");
        }
    }

    /** Idempotent, so every start can run it; only the first start of a fresh data directory creates anything. */
    private static void createApplicationDatabase(Connection admin) throws SQLException {
        try (Statement statement = admin.createStatement()) {
            statement.execute("DO $$ BEGIN"
                    + " IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '" + USER + "') THEN"
                    + " CREATE ROLE " + USER + " LOGIN PASSWORD '" + PASSWORD + "';"
                    + " END IF; END $$");
            // so change-data-capture tools (the benchmark's Debezium) can read the WAL as the application user
            statement.execute("ALTER ROLE " + USER + " REPLICATION");
            try (ResultSet rows = statement.executeQuery(
                    "SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
                if (rows.next()) {
                    return;
                }
            }
            statement.execute("CREATE DATABASE " + DATABASE + " OWNER " + USER);
        }
    }

    private Connection connect(String database, String user, String password) throws SQLException {
        String url = "jdbc:postgresql://" + Ports.LOOPBACK + ":" + port() + "/" + database
                + "?connectTimeout=2&socketTimeout=10";
        return DriverManager.getConnection(url, user, password);
    }
}
