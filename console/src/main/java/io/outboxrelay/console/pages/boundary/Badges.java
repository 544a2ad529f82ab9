package io.outboxrelay.console.pages.boundary;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;

/** The style class of a status badge, so every page colours states alike. */
@Named("outboxBadges")
@ApplicationScoped
public class Badges {

    public static String of(String status) {
        return "badge badge-" + (status == null ? "unknown" : status.toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
    }

    public String styleOf(String status) {
        return of(status);
    }
}
