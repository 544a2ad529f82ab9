package io.outboxrelay.cdc.control;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Debezium's engine in a class loader of its own: the jars of the cdc-engine module, which this jar carries zipped
 * as {@value #ENGINE}, unpacked into a temporary folder. Its parent is the JDK's platform loader, so nothing of the
 * application (its Kafka 4.4 client) or of the server (its JAX-RS, its CDI) is seen from inside, nor the engine's
 * classes from outside; the two talk through JDK types only. Closing it deletes the folder.
 */
public final class EngineLoader implements AutoCloseable {

    /** A zip of jars, not named so: Liberty would open it as a nested archive and scan its classes. */
    static final String ENGINE = "META-INF/outbox-relay/cdc-engine.jars";

    private final Path folder;
    private final URLClassLoader loader;

    private EngineLoader(Path folder, URLClassLoader loader) {
        this.folder = folder;
        this.loader = loader;
    }

    public static EngineLoader unpack() throws IOException {
        Path folder = Files.createTempDirectory("outbox-relay-cdc-engine");
        List<URL> jars = new ArrayList<>();
        try (InputStream zip = EngineLoader.class.getClassLoader().getResourceAsStream(ENGINE)) {
            if (zip == null) {
                throw new IllegalStateException(ENGINE + " is missing from the outbox-relay-cdc jar: build it with Maven's"
                        + " package phase, which packs the cdc-engine module first");
            }
            try (ZipInputStream entries = new ZipInputStream(zip)) {
                for (ZipEntry entry; (entry = entries.getNextEntry()) != null; ) {
                    Path jar = folder.resolve(Path.of(entry.getName()).getFileName().toString());
                    Files.copy(entries, jar, StandardCopyOption.REPLACE_EXISTING);
                    jars.add(jar.toUri().toURL());
                }
            }
        } catch (IOException | RuntimeException e) {
            delete(folder);
            throw e;
        }
        return new EngineLoader(folder, new URLClassLoader("outbox-relay-cdc-engine", jars.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader()));
    }

    public ClassLoader classLoader() {
        return loader;
    }

    @Override
    public void close() throws IOException {
        try {
            loader.close();
        } finally {
            delete(folder);
        }
    }

    private static void delete(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
