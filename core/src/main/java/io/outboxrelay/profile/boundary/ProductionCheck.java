package io.outboxrelay.profile.boundary;

import java.util.List;

/**
 * A setting of the application's own that must not reach production (demo traffic, a benchmark-only
 * switch). Every CDI bean of this type is asked when the server starts in the production profile; the
 * {@link ProductionGuard} refuses to start, naming each setting found.
 */
public interface ProductionCheck {

    /** Each local-only setting found, as a sentence that says what to change; empty when there is none. */
    List<String> localOnlySettings();
}
