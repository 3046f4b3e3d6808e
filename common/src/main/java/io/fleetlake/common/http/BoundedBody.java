package io.fleetlake.common.http;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a request body up to a limit, whether its length is declared ({@code Content-Length}) or not (chunked): the
 * one way the project's HTTP servers bound what a client can make them hold. A body over the limit is refused after
 * reading at most one byte more than the limit; the server answers 413.
 */
public final class BoundedBody {
    private BoundedBody() {}

    /**
     * @param input the body
     * @param declaredLength the {@code Content-Length}, negative when not declared
     * @param maxBytes the largest body accepted
     * @throws TooLargeException when the body is larger than {@code maxBytes}
     */
    public static byte[] read(InputStream input, long declaredLength, long maxBytes) throws IOException {
        requireNonNull(input, "input is null");
        if (declaredLength > maxBytes) {
            throw new TooLargeException(maxBytes);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int read;
        while ((read = input.read(buffer)) >= 0) {
            body.write(buffer, 0, read);
            if (body.size() > maxBytes) {
                throw new TooLargeException(maxBytes);
            }
        }
        return body.toByteArray();
    }

    /** A body over the limit: answer 413. */
    public static final class TooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        private final long maxBytes;

        TooLargeException(long maxBytes) {
            super("The request body is larger than " + maxBytes + " bytes");
            this.maxBytes = maxBytes;
        }

        public long maxBytes() {
            return maxBytes;
        }
    }
}
