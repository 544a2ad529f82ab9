/**
 * The production profile ({@code OUTBOX_PROFILE=production}): the server refuses to start on the
 * settings that only make sense on a developer's machine (local default passwords, local users), and on
 * those each application names through a {@link io.outboxrelay.profile.boundary.ProductionCheck}.
 */
package io.outboxrelay.profile;
