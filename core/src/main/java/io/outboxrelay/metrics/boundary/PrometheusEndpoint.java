package io.outboxrelay.metrics.boundary;

import io.outboxrelay.metrics.control.OutboxMeters;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/**
 * {@code GET /outbox/prometheus}: our meters in the Prometheus text format, for a scraper. Cheap: it
 * reads counters and the cached lag snapshot, never the database. Like {@code /health}, it is
 * not behind a login; expose it only where your scraper runs.
 */
@WebServlet("/outbox/prometheus")
public class PrometheusEndpoint extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    transient OutboxMeters meters;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain; version=0.0.4; charset=utf-8");
        response.getWriter().write(meters.scrape());
    }
}
