package io.outboxrelay.packaging;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core jar an application adds, as the build packaged it: the outbox, nothing of the console or the
 * example. An integration test only because it needs the packaged jar; it starts no server.
 */
class CoreJarIT {

    @Test
    void theCoreJarHoldsNoClassOfTheConsoleOrTheExample() throws Exception {
        Path jar = Path.of(System.getProperty("it.core.jar"));
        assertThat(jar).as("the core jar the build packaged").isRegularFile();
        try (JarFile core = new JarFile(jar.toFile())) {
            List<String> classes = core.stream().map(entry -> entry.getName()).filter(name -> name.endsWith(".class")).toList();
            assertThat(classes).as("classes in " + jar).isNotEmpty().allMatch(name -> name.startsWith("io/outboxrelay/"))
                    .noneMatch(name -> name.startsWith("io/outboxrelay/console/"))
                    .noneMatch(name -> name.startsWith("io/outboxrelay/example/"));
            assertThat(core.getEntry("META-INF/beans.xml")).as("a CDI bean archive").isNotNull();
            assertThat(core.getEntry("META-INF/outbox-relay/schema.sql")).as("the plain DDL for DBAs").isNotNull();
            assertThat(core.getEntry("db/outbox-relay/V001__outbox_relay_schema.sql")).as("its own migrations").isNotNull();
            assertThat(core.stream().map(entry -> entry.getName()))
                    .as("no persistence unit or web descriptor that would take over an application's own")
                    .doesNotContain("META-INF/persistence.xml", "META-INF/web-fragment.xml", "WEB-INF/web.xml");
        }
    }
}
