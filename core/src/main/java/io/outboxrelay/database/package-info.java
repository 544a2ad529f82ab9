/** What the application knows about its database as such: when a failure means it is unavailable. */
package io.outboxrelay.database;
