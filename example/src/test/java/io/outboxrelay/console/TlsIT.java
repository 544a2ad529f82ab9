package io.outboxrelay.console;

import io.outboxrelay.support.Api;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HTTPS for the console and the operator API as the example's server.xml configures it: the certificate of the
 * keystore that KEYSTORE_FILE and KEYSTORE_PASSWORD name (here the local default, which Liberty creates with a
 * self-signed certificate on first start), and over HTTPS every answer under /outbox/ tells the browser to stay
 * on HTTPS. The client trusts that keystore's certificate and nothing else.
 */
class TlsIT {

    private static final String HTTPS = "https://127.0.0.1:" + System.getProperty("it.https.port");
    private static final Path KEYSTORE = Path.of(System.getProperty("it.wlp.home"), "usr", "servers",
            System.getProperty("it.server.name"), "resources", "security", "key.p12");
    private static final char[] KEYSTORE_PASSWORD = "outbox-relay-local".toCharArray();

    private static SSLContext trustingTheServersKeystoreOnly;
    private static Certificate serverCertificate;

    @BeforeAll
    static void trustTheServersCertificate() throws Exception {
        Api.awaitReady(Duration.ofMinutes(3));
        KeyStore keystore = KeyStore.getInstance("PKCS12");
        try (InputStream file = Files.newInputStream(KEYSTORE)) {
            keystore.load(file, KEYSTORE_PASSWORD);
        }
        serverCertificate = keystore.getCertificate(keystore.aliases().nextElement());
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("outbox-relay", serverCertificate);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        trustingTheServersKeystoreOnly = SSLContext.getInstance("TLS");
        trustingTheServersKeystoreOnly.init(null, trust.getTrustManagers(), null);
    }

    @Test
    void theConsoleIsServedOverHttpsWithTheKeystoresCertificateAndHsts() throws Exception {
        HttpsURLConnection login = open("/outbox/console/login.xhtml");

        assertThat(login.getResponseCode()).isEqualTo(200);
        assertThat(login.getServerCertificates()[0]).as("the certificate of KEYSTORE_FILE").isEqualTo(serverCertificate);
        assertThat(login.getHeaderField("Strict-Transport-Security")).isEqualTo("max-age=31536000");
        assertThat(login.getHeaderField("Content-Security-Policy")).contains("frame-ancestors 'none'");
        assertThat(new String(login.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).contains("j_security_check");
    }

    @Test
    void theOperatorApiAnswersOverHttpsWithHsts() throws Exception {
        HttpsURLConnection events = open("/outbox/api/events?size=1");
        events.setRequestProperty("Authorization", "Basic " + Base64.getEncoder()
                .encodeToString(("viewer:" + Api.VIEWER_PASSWORD).getBytes(StandardCharsets.UTF_8)));

        assertThat(events.getResponseCode()).isEqualTo(200);
        assertThat(events.getContentType()).startsWith("application/json");
        assertThat(events.getHeaderField("Strict-Transport-Security")).isEqualTo("max-age=31536000");
    }

    private static HttpsURLConnection open(String path) throws Exception {
        HttpsURLConnection connection = (HttpsURLConnection) URI.create(HTTPS + path).toURL().openConnection();
        connection.setSSLSocketFactory(trustingTheServersKeystoreOnly.getSocketFactory());
        // the self-signed certificate names this machine's host name, not 127.0.0.1; trust comes from the certificate itself
        connection.setHostnameVerifier((host, session) -> "127.0.0.1".equals(host));
        connection.setConnectTimeout(5_000);
        connection.setReadTimeout(30_000);
        return connection;
    }
}
