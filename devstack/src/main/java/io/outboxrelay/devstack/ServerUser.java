package io.outboxrelay.devstack;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;

/**
 * The OS account PostgreSQL runs as. PostgreSQL refuses to run as root, so root drops to
 * {@code nobody} with setpriv (which execs, keeping the pid); anybody else runs it as themselves.
 */
final class ServerUser {

    private static final String UNPRIVILEGED = "nobody";

    private final boolean dropsPrivileges;
    private final String uid;
    private final String gid;

    private ServerUser(boolean dropsPrivileges, String uid, String gid) {
        this.dropsPrivileges = dropsPrivileges;
        this.uid = uid;
        this.gid = gid;
    }

    static ServerUser forCurrentProcess() {
        if (new UnixSystem().getUid() != 0) {
            return new ServerUser(false, null, null);
        }
        return new ServerUser(true,
                ProcessControl.output("id", "-u", UNPRIVILEGED),
                ProcessControl.output("id", "-g", UNPRIVILEGED));
    }

    /** {@code command}, run as this user. */
    List<String> command(List<String> command) {
        if (!dropsPrivileges) {
            return command;
        }
        List<String> result = new ArrayList<>(List.of(
                "setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--"));
        result.addAll(command);
        return result;
    }

    /** Hands {@code path} to this user, who must be able to write it. */
    void own(Path path) throws IOException {
        if (dropsPrivileges) {
            Files.setAttribute(path, "unix:uid", Integer.parseInt(uid));
            Files.setAttribute(path, "unix:gid", Integer.parseInt(gid));
        }
    }

    /** Whether this user can reach {@code dir}: every existing folder on the way must be searchable. */
    boolean canReach(Path dir) throws IOException {
        if (!dropsPrivileges) {
            return true;
        }
        for (Path p = dir.toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p) && !Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                return false;
            }
        }
        return true;
    }
}
