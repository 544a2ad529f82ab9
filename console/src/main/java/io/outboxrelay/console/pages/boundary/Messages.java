package io.outboxrelay.console.pages.boundary;

import jakarta.faces.application.FacesMessage;
import jakarta.faces.context.FacesContext;

/** What the console tells the operator after an action: one line, kept across a redirect. */
final class Messages {

    private Messages() {
    }

    static void info(String summary) {
        add(FacesMessage.SEVERITY_INFO, summary);
    }

    static void error(String summary) {
        add(FacesMessage.SEVERITY_ERROR, summary);
    }

    /** Database or Kafka did not answer: say so instead of showing an error page. */
    static void unavailable(String what, Exception cause) {
        error(what + " is not available right now (" + cause.getClass().getSimpleName() + "). Try again in a moment.");
    }

    private static void add(FacesMessage.Severity severity, String summary) {
        FacesContext faces = FacesContext.getCurrentInstance();
        faces.addMessage(null, new FacesMessage(severity, summary, null));
        faces.getExternalContext().getFlash().setKeepMessages(true);
    }
}
