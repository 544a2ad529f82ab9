/**
 * The production profile ({@code OUTBOX_PROFILE=production}): the server refuses to start on the
 * settings that only make sense on a developer's machine (local default passwords, local users, demo traffic).
 */
package io.outboxrelay.profile;
