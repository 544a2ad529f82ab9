package io.outboxrelay.devstack;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * The PostgreSQL 17 binaries shipped in zonky's binaries jar, unpacked into the state directory.
 * They live there rather than in a shared cache so that the unprivileged server user can read them
 * and removing the state directory removes everything.
 */
final class PostgresBinaries {

    private static final PosixFilePermission[] MODE_BITS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
    };

    private PostgresBinaries() {
    }

    /** Unpacks the binaries into {@code home} unless a complete copy is already there; returns its bin dir. */
    static Path ensureUnpacked(Path home) throws IOException {
        Path bin = home.resolve("bin");
        if (Files.isExecutable(bin.resolve("postgres"))) {
            return bin;
        }
        // Unpack beside the target and rename, so an interrupted unpack never looks complete.
        Path partial = home.resolveSibling(home.getFileName() + ".partial");
        deleteRecursively(partial);
        try (InputStream archive = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary("Linux", "x86_64");
             TarArchiveInputStream tar = new TarArchiveInputStream(
                     new XZInputStream(new BufferedInputStream(archive, 1 << 16)))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                unpack(tar, entry, partial);
            }
        }
        openDirectories(partial);
        Files.move(partial, home);
        return bin;
    }

    private static void unpack(TarArchiveInputStream tar, TarArchiveEntry entry, Path root) throws IOException {
        Path target = resolveInside(root, entry.getName());
        if (entry.isDirectory()) {
            Files.createDirectories(target);
            return;
        }
        Files.createDirectories(target.getParent());
        if (entry.isSymbolicLink()) {
            Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
        } else if (entry.isLink()) {
            Files.createLink(target, resolveInside(root, entry.getLinkName()));
        } else {
            Files.copy(tar, target);
            Files.setPosixFilePermissions(target, permissions(entry.getMode()));
        }
    }

    /** Directories are made with our umask; the server user (maybe another account) must traverse them. */
    private static void openDirectories(Path root) throws IOException {
        Set<PosixFilePermission> open = PosixFilePermissions.fromString("rwxr-xr-x");
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : (Iterable<Path>) paths.filter(Files::isDirectory)::iterator) {
                Files.setPosixFilePermissions(p, open);
            }
        }
    }

    private static Path resolveInside(Path root, String name) {
        Path resolved = root.resolve(name).normalize();
        if (!resolved.startsWith(root)) {
            throw new DevStackException("unexpected path in the PostgreSQL archive: " + name);
        }
        return resolved;
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        for (int bit = 0; bit < MODE_BITS.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                permissions.add(MODE_BITS[bit]);
            }
        }
        return permissions;
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(path)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }
}
