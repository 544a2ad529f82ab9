package io.outboxrelay.tracing.control;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;

/**
 * The HTTP request being served, for the request-scoped trace. Looked up here, once per application: the container's
 * {@code HttpServletRequest} bean is request-scoped, so its one proxy serves every request, whereas an {@code Instance}
 * injected into each request's trace was made anew for every request (a sixth of an append's time in a profile of the
 * orders API, 2026-12-06).
 */
@ApplicationScoped
public class ServletRequests {

    @Inject
    Instance<HttpServletRequest> requests;

    private volatile HttpServletRequest proxy;
    private volatile boolean looked;

    /** The request being served on this thread, or null: a timer, a consumer, a server without servlets. */
    public HttpServletRequest current() {
        HttpServletRequest request = proxy();
        if (request == null) {
            return null;
        }
        try {
            request.getMethod(); // touches the proxy: fails here when no HTTP request is being served
            return request;
        } catch (RuntimeException noHttpRequest) {
            return null;
        }
    }

    private HttpServletRequest proxy() {
        if (!looked) {
            synchronized (this) {
                if (!looked) {
                    proxy = requests != null && requests.isResolvable() ? requests.get() : null;
                    looked = true;
                }
            }
        }
        return proxy;
    }
}
