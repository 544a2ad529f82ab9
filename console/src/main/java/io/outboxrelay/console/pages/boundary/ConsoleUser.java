package io.outboxrelay.console.pages.boundary;

import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import jakarta.inject.Named;

import java.io.IOException;

/** Who is signed in to the console, and what they may do. */
@Named("outboxUser")
@RequestScoped
public class ConsoleUser {

    public String getName() {
        var principal = external().getUserPrincipal();
        return principal == null ? "" : principal.getName();
    }

    public boolean isOperator() {
        return external().isUserInRole("operator");
    }

    public void signOut() throws IOException, jakarta.servlet.ServletException {
        ExternalContext external = external();
        ((jakarta.servlet.http.HttpServletRequest) external.getRequest()).logout();
        external.invalidateSession();
        external.redirect(external.getRequestContextPath() + "/outbox/console/");
    }

    private static ExternalContext external() {
        return FacesContext.getCurrentInstance().getExternalContext();
    }
}
