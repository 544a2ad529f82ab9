package io.outboxrelay.adoption;

import io.outboxrelay.adoption.payments.PaymentsApi;
import io.outboxrelay.support.LibertyServer;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A Liberty server of the adoption tests' own, laid out as a team would: its server.xml includes the documented
 * fragment (the very {@code outbox-relay.xml} the example's server includes), its applications are the payments
 * WAR (built here from the payments sources and the core's jars only) and, for the standalone topology, the
 * Outbox Relay server WAR. It runs on a database of its own in the test stack's PostgreSQL, so no other relay
 * can touch its rows. Started and stopped through Liberty's own server script.
 */
final class AdoptionServer implements AutoCloseable {

    private static final Path LIBERTY_CONFIG = Path.of(System.getProperty("it.project.root", ".."))
            .resolve("example/src/main/liberty/config");
    private static final Path EXAMPLE_LIBS = Path.of(System.getProperty("it.example.libs"));
    private static final Path SERVER_WAR = Path.of(System.getProperty("it.server.war"));
    private static final Path LOCAL_USERS = Path.of(System.getProperty("it.project.root", ".."))
            .resolve("example/src/main/liberty/local/local-users.xml");
    private static final String DB_URL = System.getProperty("it.db.url");

    private final String name;
    private final Path dir;
    private final int httpPort;
    private final String database;

    private AdoptionServer(String name, String database) throws IOException {
        this.name = name;
        this.database = database;
        this.dir = LibertyServer.directory(name);
        this.httpPort = freePort();
    }

    /** One application of the server: a WAR, its context root and the settings only it sees. */
    record App(String id, Path war, String contextRoot, Map<String, String> settings) {
    }

    /** Lays out, starts and waits for a server with these applications on a fresh database. */
    static AdoptionServer start(String name, String database, boolean console, List<App> apps) throws Exception {
        return start(name, database, true, console, apps);
    }

    /** Lays out, starts and waits for a server; {@code freshDatabase} false joins the database as it is. */
    static AdoptionServer start(String name, String database, boolean freshDatabase, boolean console, List<App> apps)
            throws Exception {
        AdoptionServer server = new AdoptionServer(name, database);
        if (freshDatabase) {
            server.freshDatabase();
        }
        server.layOut(console, apps);
        server.run("start");
        try {
            server.awaitReady(Duration.ofMinutes(4));
        } catch (RuntimeException notReady) {
            server.close(); // the test class never gets the server to stop it
            throw notReady;
        }
        return server;
    }

    /** The payments WAR with the core's jars only. */
    static Path paymentsWar() throws IOException {
        return paymentsWar(false);
    }

    /** The payments WAR, with the console's jar and PrimeFaces besides the core's when {@code withConsole}. */
    static Path paymentsWar(boolean withConsole) throws IOException {
        return paymentsWar(withConsole ? "payments-with-console.war" : "payments.war",
                withConsole ? allLibraries().stream().filter(jar -> !isCdc(jar)).toList() : coreLibraries());
    }

    /** The payments WAR with the core's jars and the CDC mode's, as a team that wants CDC builds it. */
    static Path paymentsWarWithCdc() throws IOException {
        List<Path> libraries = new java.util.ArrayList<>(coreLibraries());
        libraries.addAll(allLibraries().stream().filter(AdoptionServer::isCdc).toList());
        return paymentsWar("payments-with-cdc.war", libraries);
    }

    /** The payments WAR with every jar: the core's, the CDC mode's, the console's and PrimeFaces. */
    static Path paymentsWarWithCdcAndConsole() throws IOException {
        return paymentsWar("payments-with-cdc-and-console.war", allLibraries());
    }

    private static Path paymentsWar(String name, List<Path> libraries) throws IOException {
        Path war = Path.of("target", "adoption", name).toAbsolutePath();
        Files.createDirectories(war.getParent());
        WebArchive archive = ShrinkWrap.create(WebArchive.class, "payments.war")
                .addPackage(PaymentsApi.class.getPackage())
                .addAsResource("adoption/payments/db/payments/V1__payments.sql", "db/payments/V1__payments.sql")
                .addAsResource(EmptyAsset.INSTANCE, "db/payments/flyway.location")
                .addAsResource("adoption/payments/microprofile-config.properties", "META-INF/microprofile-config.properties")
                .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml");
        for (Path library : libraries) {
            archive.addAsLibrary(library.toFile());
        }
        archive.as(ZipExporter.class).exportTo(war.toFile(), true);
        return war;
    }

    static Path serverWar() {
        return SERVER_WAR;
    }

    /** The core jar and what it needs at run time, as the example's WAR carries them: no console, no PrimeFaces, no CDC. */
    static List<Path> coreLibraries() throws IOException {
        return allLibraries().stream().filter(jar -> !jar.getFileName().toString().startsWith("outbox-relay-console"))
                .filter(jar -> !jar.getFileName().toString().startsWith("primefaces"))
                .filter(jar -> !isCdc(jar))
                .toList();
    }

    /** The CDC mode's jar, which carries Debezium inside and needs nothing besides the core. */
    private static boolean isCdc(Path jar) {
        return jar.getFileName().toString().startsWith("outbox-relay-cdc");
    }

    private static List<Path> allLibraries() throws IOException {
        try (Stream<Path> libraries = Files.list(EXAMPLE_LIBS)) {
            return libraries.sorted().toList();
        }
    }

    String baseUrl() {
        return "http://127.0.0.1:" + httpPort;
    }

    /** The JDBC URL of the server's own database, for the test's checks. */
    String databaseUrl() {
        return databaseUrl(database);
    }

    Path messagesLog() {
        return dir.resolve("logs/messages.log");
    }

    @Override
    public void close() throws Exception {
        run("stop");
    }

    /** Freezes the server's JVM (SIGSTOP), as a long pause of the collector or of the machine would, until {@link #resume}. */
    void pause() throws IOException, InterruptedException {
        LibertyServer.signal(name, "STOP");
    }

    void resume() throws IOException, InterruptedException {
        LibertyServer.signal(name, "CONT");
    }

    private void freshDatabase() throws SQLException {
        freshDatabase(database);
    }

    /** Drops and creates {@code database} (owned by the stack's user), for a test that must use it before a server does. */
    static void freshDatabase(String database) throws SQLException {
        String admin = DB_URL.substring(0, DB_URL.lastIndexOf('/') + 1) + "postgres";
        // the local stack's superuser, which only the test stack has
        try (Connection connection = DriverManager.getConnection(admin, "postgres", "postgres");
             Statement statement = connection.createStatement()) {
            // a replication slot of the database (CDC mode) would keep it from being dropped
            statement.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = '"
                    + database + "' AND NOT active");
            statement.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            statement.execute("CREATE DATABASE " + database + " OWNER outbox");
        }
    }

    /** The JDBC URL of {@code database} on the test stack. */
    static String databaseUrl(String database) {
        return DB_URL.substring(0, DB_URL.lastIndexOf('/') + 1) + database;
    }

    private void layOut(boolean console, List<App> apps) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        Files.createDirectories(dir.resolve("apps"));
        Files.createDirectories(dir.resolve("jdbc"));
        Files.copy(LIBERTY_CONFIG.resolve("outbox-relay.xml"), dir.resolve("outbox-relay.xml"));
        Files.copy(LIBERTY_CONFIG.resolve("outbox-relay-console.xml"), dir.resolve("outbox-relay-console.xml"));
        Files.copy(postgresDriver(), dir.resolve("jdbc/postgresql.jar"));
        StringBuilder xml = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <server description="adoption test: %s">
                    <include location="outbox-relay.xml"/>
                %s    <include location="%s"/>
                    <httpEndpoint id="defaultHttpEndpoint" host="127.0.0.1" httpPort="${HTTP_PORT}" httpsPort="-1"/>
                    <applicationManager autoExpand="true"/>
                """.formatted(name, console ? "    <include location=\"outbox-relay-console.xml\"/>\n" : "", LOCAL_USERS));
        for (App app : apps) {
            Files.copy(app.war(), dir.resolve("apps").resolve(app.id() + ".war"), StandardCopyOption.REPLACE_EXISTING);
            String properties = app.settings().entrySet().stream()
                    .map(setting -> "            <property name=\"%s\" value=\"%s\"/>".formatted(setting.getKey(), setting.getValue()))
                    .collect(Collectors.joining("\n"));
            xml.append("""
                        <webApplication id="%1$s" name="%1$s" location="%1$s.war" contextRoot="%2$s">
                            <classloader commonLibraryRef="postgresql"/>
                            <application-bnd>
                                <security-role name="operator"><group name="outbox-operators"/></security-role>
                                <security-role name="viewer"><group name="outbox-viewers"/></security-role>
                            </application-bnd>
                            <appProperties>
                    %3$s
                            </appProperties>
                        </webApplication>
                    """.formatted(app.id(), app.contextRoot(), properties));
        }
        xml.append("</server>\n");
        Files.writeString(dir.resolve("server.xml"), xml.toString(), StandardCharsets.UTF_8);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("DB_URL", databaseUrl());
        env.put("DB_USER", "outbox");
        env.put("DB_PASSWORD", "outbox");
        env.put("KAFKA_BOOTSTRAP_SERVERS", System.getProperty("it.kafka.bootstrap"));
        env.put("HTTP_PORT", String.valueOf(httpPort));
        env.put("LOCAL_OPERATOR_PASSWORD", System.getProperty("it.operator.password"));
        env.put("LOCAL_VIEWER_PASSWORD", System.getProperty("it.viewer.password"));
        Files.writeString(dir.resolve("server.env"), env.entrySet().stream()
                .map(entry -> entry.getKey() + "=" + entry.getValue()).collect(Collectors.joining("\n", "", "\n")));
    }

    private static Path postgresDriver() {
        try {
            return Path.of(org.postgresql.Driver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private void run(String action) throws IOException, InterruptedException {
        LibertyServer.run(action, name);
    }

    /** Every application answers: the server's readiness (all applications' checks) is UP. */
    private void awaitReady(Duration patience) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        try {
            Awaitility.await("adoption server " + name + " ready").atMost(patience).pollInterval(Duration.ofMillis(500))
                    .ignoreExceptions()
                    .until(() -> client.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/health/ready"))
                            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
        } catch (org.awaitility.core.ConditionTimeoutException notReady) {
            throw new IllegalStateException(notReady.getMessage() + "; its log:\n" + log(), notReady);
        }
    }

    /** The server's messages.log, for a failure's explanation. */
    String log() {
        try {
            return Files.exists(messagesLog()) ? Files.readString(messagesLog()) : "no messages.log";
        } catch (IOException unreadable) {
            return unreadable.toString();
        }
    }

    /** An event as an application appends it, written straight into a server's database; returns its row id. */
    static long insertEvent(Connection db, UUID eventId, String aggregateId, String topic, String status) throws SQLException {
        try (PreparedStatement insert = db.prepareStatement("""
                INSERT INTO outbox_event (event_id, aggregate_type, aggregate_id, event_type, topic, payload, headers, status)
                VALUES (?, 'Parcel', ?, 'ParcelMoved', ?, '{}'::jsonb, '{}'::jsonb, ?) RETURNING id""")) {
            insert.setObject(1, eventId);
            insert.setString(2, aggregateId);
            insert.setString(3, topic);
            insert.setString(4, status);
            try (ResultSet result = insert.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    /** The status of an event in the server's own database; null when it has no such event. */
    String status(UUID eventId) throws SQLException {
        try (Connection connection = DriverManager.getConnection(databaseUrl(), "outbox", "outbox");
             PreparedStatement query = connection.prepareStatement("SELECT status FROM outbox_event_state WHERE event_id = ?")) {
            query.setObject(1, eventId);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }

    /** A count from the server's own database. */
    long count(String sql, Object... parameters) throws SQLException {
        try (Connection connection = DriverManager.getConnection(databaseUrl(), "outbox", "outbox");
             PreparedStatement query = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                query.setObject(i + 1, parameters[i]);
            }
            try (ResultSet result = query.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
