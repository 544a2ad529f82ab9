package io.outboxrelay.console.problem.boundary;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/**
 * Errors the REST layer raises itself: unknown path (404), wrong method (405), unreadable body
 * (400), unsupported media type (415)... The runtime's messages may carry parser or class
 * names, so clients get a fixed wording per status instead.
 */
public class WebApplicationExceptionMapper implements ExceptionMapper<WebApplicationException> {

    @Override
    public Response toResponse(WebApplicationException exception) {
        Response original = exception.getResponse();
        int status = original.getStatus();
        Response.StatusType type = Response.Status.fromStatusCode(status);
        String title = type == null ? "Error" : type.getReasonPhrase();
        Response response = new Problem(status, title, detail(status)).toResponse();
        if (original.getHeaderString("Allow") != null) {
            return Response.fromResponse(response).header("Allow", original.getHeaderString("Allow")).build();
        }
        return response;
    }

    private static String detail(int status) {
        return switch (status) {
            case 400 -> "The request body could not be read: it must be well-formed JSON of the documented shape.";
            case 404 -> "There is no resource at this path.";
            case 405 -> "This path does not accept that HTTP method.";
            case 406 -> "The API answers with application/json only.";
            case 415 -> "Send the request body as application/json.";
            default -> null;
        };
    }
}
