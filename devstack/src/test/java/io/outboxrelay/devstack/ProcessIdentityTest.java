package io.outboxrelay.devstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProcessIdentityTest {

    private final ProcessHandle self = ProcessHandle.current();
    private final Instant selfStarted = self.info().startInstant().orElseThrow();

    @Test
    void aPidFileRoundTripsAndOneWithAPidOnlyIsLegacy() {
        ProcessIdentity identity = new ProcessIdentity(4242, Instant.parse("2025-03-04T05:06:07.080Z"), "java");

        assertEquals(Optional.of(new ProcessIdentity.Recorded(identity)), ProcessIdentity.parse(identity.format()));
        assertTrue(identity.format().startsWith("4242\n"), "the first line stays the bare pid");
        assertEquals(Optional.of(new ProcessIdentity.Legacy(4242)), ProcessIdentity.parse("4242\n"));
        assertEquals(Optional.empty(), ProcessIdentity.parse("not a pid\n"));
        assertEquals(Optional.empty(), ProcessIdentity.parse("4242\nstarted=yesterday\nexecutable=java\n"));
    }

    @Test
    void aLiveProcessIsFoundByItsStartInstantAndExecutableWhateverItsArguments() {
        String executable = ProcessIdentity.executableName(self.info().command().orElseThrow());

        assertEquals(Optional.of(self.pid()),
                new ProcessIdentity(self.pid(), selfStarted, executable).find().map(ProcessHandle::pid));
        assertEquals(Optional.of(self.pid()), new ProcessIdentity(self.pid(),
                selfStarted.plus(ProcessIdentity.START_TOLERANCE), executable).find().map(ProcessHandle::pid));
    }

    @Test
    void aRecycledPidIsNotOurs() {
        String executable = ProcessIdentity.executableName(self.info().command().orElseThrow());

        assertEquals(Optional.empty(),
                new ProcessIdentity(self.pid(), selfStarted.minus(Duration.ofMinutes(1)), executable).find());
        assertEquals(Optional.empty(), new ProcessIdentity(self.pid(), selfStarted, "postgres").find());
    }

    @Test
    void theExecutableNameSurvivesAnUpdateOfTheFileOnDisk() {
        assertEquals("java", ProcessIdentity.executableName("/opt/jdk/bin/java"));
        assertEquals("java", ProcessIdentity.executableName("/opt/jdk/bin/java (deleted)"));
        assertEquals("postgres", ProcessIdentity.executableName("postgres"));
    }
}
