package io.outboxrelay.console.security.boundary;

import io.outboxrelay.console.problem.boundary.Problem;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;

/**
 * The operator API's writes (every method but GET, HEAD and OPTIONS) come from programs, never from
 * another site's page. A browser signed in to the console sends its login cookie, and Basic credentials
 * it remembers, with any request any page makes, so credentials alone prove nothing here. A write is
 * refused unless
 * <ul>
 * <li>it declares a JSON body ({@code Content-Type: application/json}, also when it has no body): an HTML
 *     form cannot, and a script on another site can only after a CORS preflight, which this server never
 *     grants (415 otherwise);</li>
 * <li>the browser's own account of where it came from, when it gives one, says this site: {@code Sec-Fetch-Site}
 *     {@code same-origin} or {@code none}, and an {@code Origin} whose host and port are the ones the request
 *     was addressed to (403 otherwise). Programs such as curl send neither header.</li>
 * </ul>
 */
public class CrossSiteWrites extends HttpFilter {

    private static final long serialVersionUID = 1L;
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");
    private static final Set<String> OWN_FETCH_SITES = Set.of("same-origin", "none");

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (SAFE_METHODS.contains(request.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        String host = request.getHeader("Host"); // HTTP/2 names it :authority, which the container turns into the server name
        String refusal = crossSite(request.getHeader("Sec-Fetch-Site"), request.getHeader("Origin"),
                host != null ? host : request.getServerName() + ":" + request.getServerPort());
        if (refusal != null) {
            new Problem(403, "Forbidden", refusal).writeTo(response);
        } else if (!isJson(request.getContentType())) {
            new Problem(415, "Unsupported Media Type", "Changes are accepted as application/json only"
                    + " (send Content-Type: application/json, also without a body).").writeTo(response);
        } else {
            chain.doFilter(request, response);
        }
    }

    /** Why the request's own headers say another site sent it, or null when they do not. */
    static String crossSite(String fetchSite, String origin, String host) {
        if (fetchSite != null && !OWN_FETCH_SITES.contains(fetchSite.trim().toLowerCase(Locale.ROOT))) {
            return "A page of another site (Sec-Fetch-Site: " + fetchSite + ") may not change anything here.";
        }
        if (origin != null && !sameAuthority(origin, host)) {
            return "A page of another origin may not change anything here.";
        }
        return null;
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return mediaType.equals("application/json");
    }

    private static boolean sameAuthority(String origin, String host) {
        if (host == null) {
            return false;
        }
        try {
            URI uri = new URI(origin.trim());
            if (uri.getHost() == null || uri.getScheme() == null) {
                return false; // "null" (a sandboxed or file page) or garbage
            }
            int defaultPort = uri.getScheme().equalsIgnoreCase("https") ? 443 : 80;
            int port = uri.getPort() == -1 ? defaultPort : uri.getPort();
            String hostName = host.trim().toLowerCase(Locale.ROOT);
            String expected = uri.getHost().toLowerCase(Locale.ROOT);
            return hostName.equals(expected + ":" + port) || (port == defaultPort && hostName.equals(expected));
        } catch (URISyntaxException garbage) {
            return false;
        }
    }

}
