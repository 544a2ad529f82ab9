package io.outboxrelay.devstack;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * One devstack state directory: the data of both servers, their logs and pid files, and the settings
 * (ports, Kafka overrides) that a later start must reuse.
 */
final class StackState {

    private static final String SETTINGS_FILE = "devstack.properties";

    private final Path dir;
    private final Properties settings = new Properties();

    private StackState(Path dir) {
        this.dir = dir.toAbsolutePath().normalize();
        Path file = this.dir.resolve(SETTINGS_FILE);
        if (Files.exists(file)) {
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                settings.load(reader);
            } catch (IOException e) {
                throw new DevStackException("cannot read " + file + ": " + e.getMessage(), e);
            }
        }
    }

    /** The state in {@code dir}, created empty if it does not exist yet. */
    static StackState createOrLoad(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new DevStackException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        return new StackState(dir);
    }

    /** The state of a devstack that {@code stack up} has created before. */
    static StackState load(Path dir) {
        StackState state = new StackState(dir);
        if (state.settings.isEmpty()) {
            throw new DevStackException("no devstack in " + state.dir + "; run 'stack up --dir " + dir + "' first");
        }
        return state;
    }

    /** The state if there is one, without creating anything. */
    static Optional<StackState> find(Path dir) {
        StackState state = new StackState(dir);
        return state.settings.isEmpty() ? Optional.empty() : Optional.of(state);
    }

    Path dir() {
        return dir;
    }

    Path file(String relative) {
        return dir.resolve(relative);
    }

    Optional<String> get(String key) {
        return Optional.ofNullable(settings.getProperty(key));
    }

    String getOrCreate(String key, Supplier<String> initial) {
        return get(key).orElseGet(() -> {
            String value = initial.get();
            set(key, value);
            return value;
        });
    }

    void set(String key, String value) {
        settings.setProperty(key, value);
    }

    Optional<Integer> port(String key) {
        return get(key).map(Integer::parseInt);
    }

    int requirePort(String key) {
        return port(key).orElseThrow(() -> new DevStackException("no " + key + " in " + file(SETTINGS_FILE)));
    }

    /** Every port stored so far, so that a newly picked one differs from them. */
    Set<Integer> ports() {
        Set<Integer> ports = new HashSet<>();
        settings.stringPropertyNames().stream()
                .filter(key -> key.endsWith(".port"))
                .forEach(key -> ports.add(Integer.parseInt(settings.getProperty(key))));
        return ports;
    }

    /** The settings whose keys start with {@code prefix}, with the prefix removed. */
    Map<String, String> withPrefix(String prefix) {
        Map<String, String> result = new TreeMap<>();
        settings.stringPropertyNames().stream()
                .filter(key -> key.startsWith(prefix))
                .forEach(key -> result.put(key.substring(prefix.length()), settings.getProperty(key)));
        return result;
    }

    void save() {
        write(SETTINGS_FILE, writer -> settings.store(writer, "devstack settings, reused by every start"));
    }

    /** Replaces a file in the state directory atomically, so a reader never sees half of it. */
    void writeFile(String relative, String content) {
        write(relative, writer -> writer.write(content));
    }

    private void write(String relative, WriterAction action) {
        Path target = file(relative);
        Path temp = target.resolveSibling(target.getFileName() + ".tmp");
        try {
            Files.createDirectories(target.getParent());
            try (Writer writer = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
                action.write(writer);
            }
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new DevStackException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface WriterAction {
        void write(Writer writer) throws IOException;
    }
}
