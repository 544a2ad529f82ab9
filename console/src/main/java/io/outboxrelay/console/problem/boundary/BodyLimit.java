package io.outboxrelay.console.problem.boundary;

import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Refuses API request bodies larger than {@code outbox.api.max-body-bytes} (default 1 MiB) with a
 * 413 problem document before anything reads them. A request without a declared length
 * (chunked) is read here up to the limit: one byte more and it is refused the same way; a body
 * within the limit is handed on from memory.
 */
public class BodyLimit extends HttpFilter {

    private static final long serialVersionUID = 1L;

    @Inject
    @ConfigProperty(name = "outbox.api.max-body-bytes", defaultValue = "1048576")
    transient long maxBytes;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            refuse(response, "The request body is " + declared + " bytes; at most " + maxBytes + " are accepted.");
            return;
        }
        if (declared < 0 && request.getHeader("Transfer-Encoding") != null) {
            byte[] body = request.getInputStream().readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (body.length > maxBytes) {
                refuse(response, "The request body is more than " + maxBytes + " bytes; at most " + maxBytes + " are accepted.");
                return;
            }
            chain.doFilter(new BufferedBody(request, body), response);
            return;
        }
        chain.doFilter(request, response);
    }

    private static void refuse(HttpServletResponse response, String detail) throws IOException {
        response.setHeader("Connection", "close"); // the unread body is not worth receiving
        new Problem(413, "Content Too Large", detail).writeTo(response);
    }

    /** A request whose body was already read (within the limit), served again from memory. */
    private static final class BufferedBody extends HttpServletRequestWrapper {

        private final byte[] body;

        BufferedBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream bytes = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return bytes.read();
                }

                @Override
                public int read(byte[] buffer, int offset, int length) {
                    return bytes.read(buffer, offset, length);
                }

                @Override
                public boolean isFinished() {
                    return bytes.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the body was already read");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
