package io.outboxrelay.console.problem.boundary;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.core.Response;

import java.io.IOException;

/**
 * The error page for everything outside the REST API (unknown paths, failures in the web
 * container): a problem document with the status, without the container's exception names.
 */
public class ErrorPageServlet extends HttpServlet {

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer number ? number : 404;
        Response.StatusType type = Response.Status.fromStatusCode(status);
        String title = type == null ? "Error" : type.getReasonPhrase();
        String detail = status == 404 ? "There is nothing at this path." : null;
        new Problem(status, title, detail).writeTo(response);
    }
}
