package io.outboxrelay.devstack;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A copy of the devstack as a checkout deep in the file system has it ({@code stack}, {@code pom.xml},
 * {@code target/devstack.jar}, {@code target/lib/}), built under this build's target directory from
 * the compiled classes and the test class path, so the real {@code stack} script runs from there.
 */
final class DeepCheckout {

    /** Long enough that the Kafka JVM's class path, with one entry per jar, runs past a 4 kB page. */
    private static final List<String> FOLDERS = List.of(
            "a-very-long-folder-name-like-a-home-directory-of-someone",
            "projects-work-in-progress-event-driven-architecture",
            "outbox-relay-checkout-with-a-descriptive-name");

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(180);

    private final Path root;

    private DeepCheckout(Path root) {
        this.root = root;
    }

    /** Builds the copy (again, so it holds the classes just compiled) and returns it. */
    static DeepCheckout build() throws IOException {
        Path target = buildDirectory();
        Path checkout = target;
        for (String folder : FOLDERS) {
            checkout = checkout.resolve(folder);
        }
        Path devstack = checkout.resolve("devstack");
        Path lib = devstack.resolve("target/lib");
        Files.createDirectories(lib);
        Path sources = target.getParent();
        Files.copy(sources.resolve("stack"), devstack.resolve("stack"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(sources.resolve("pom.xml"), devstack.resolve("pom.xml"), StandardCopyOption.REPLACE_EXISTING);
        Files.createDirectories(devstack.resolve("src"));
        for (Path jar : dependencyJars()) {
            Files.copy(jar, lib.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        // Older than the jar, so the script does not try to rebuild the copy with Maven.
        FileTime old = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
        Files.setLastModifiedTime(devstack.resolve("pom.xml"), old);
        Files.setLastModifiedTime(devstack.resolve("src"), old);
        writeJar(classesDirectory(), devstack.resolve("target/devstack.jar"));
        return new DeepCheckout(devstack);
    }

    /** The devstack folder of the copy. */
    Path root() {
        return root;
    }

    /** What the JVM's class path expands {@code target/lib/*} to, as the Kafka JVM would get it. */
    String expandedClassPath() throws IOException {
        List<String> entries = new ArrayList<>();
        entries.add(root.resolve("target/devstack.jar").toString());
        try (Stream<Path> jars = Files.list(root.resolve("target/lib"))) {
            jars.map(Path::toString).sorted().forEach(entries::add);
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Runs {@code stack args...} of the copy to its end; its output goes to {@code output}. */
    Result stack(Path output, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(root.resolve("stack").toString());
        command.addAll(Arrays.asList(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process process = builder.start();
        if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("stack " + String.join(" ", args) + " did not finish within " + COMMAND_TIMEOUT.toSeconds()
                    + " s; output so far: " + Files.readString(output, StandardCharsets.UTF_8));
        }
        return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }

    record Result(int exitCode, String output) {
    }

    private static Path buildDirectory() {
        return classesDirectory().getParent();
    }

    private static Path classesDirectory() {
        try {
            return Path.of(DevStack.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The jars of the test class path: the devstack's runtime dependencies (plus JUnit's, which do no harm). */
    private static List<Path> dependencyJars() {
        List<Path> jars = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> entry.endsWith(".jar"))
                .map(Path::of)
                .filter(Files::isRegularFile)
                .toList();
        if (jars.stream().noneMatch(jar -> jar.getFileName().toString().startsWith("kafka_"))) {
            throw new IllegalStateException("the test class path lacks Kafka: " + System.getProperty("java.class.path"));
        }
        return jars;
    }

    private static void writeJar(Path classes, Path jar) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar);
             JarOutputStream out = new JarOutputStream(file);
             Stream<Path> files = Files.walk(classes)) {
            for (Path path : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(path).toString().replace(File.separatorChar, '/')));
                Files.copy(path, out);
                out.closeEntry();
            }
        }
    }
}
