package io.fleetlake.http;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.http.BoundedBody;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one way the project's Javalin servers admit a request within their {@link RequestLimits}: a permit per request
 * served, refused at once when none is free, and a body read up to the limit, whether declared ({@code
 * Content-Length}) or chunked. What a refusal looks like stays the server's: it passes a writer that answers a {@link
 * Refusal} with its own error body, so that each keeps its clients' error format.
 *
 * <p>Thread-safe: one per server, shared by its request threads.
 */
public final class RequestAdmission {
    private static final Logger LOG = LoggerFactory.getLogger(RequestAdmission.class);

    private final RequestLimits limits;
    private final Semaphore permits;

    public RequestAdmission(RequestLimits limits) {
        this.limits = requireNonNull(limits, "limits is null");
        this.permits = new Semaphore(limits.maxConcurrentRequests());
    }

    public RequestLimits limits() {
        return limits;
    }

    /**
     * Sets Javalin's own limit, which applies where a handler reads the body through Javalin ({@code context.body()})
     * rather than through {@link #body}, so that no path of the server reads more than the limit ({@link
     * JavalinServer} does this).
     */
    void configure(JavalinConfig config) {
        requireNonNull(config, "config is null");
        config.http.maxRequestSize = limits.maxRequestBytes();
    }

    /**
     * Runs {@code admitted} holding one of the permits, released when it returns or throws. Without a free permit it
     * does not wait: it sets {@code Retry-After: 1} and hands {@link Refusal#TOO_BUSY} to {@code refuse}, since a
     * client that retries a second later is better served than one whose request queues behind a stalled one.
     */
    public void serve(Context context, Consumer<Refusal> refuse, Runnable admitted) {
        requireNonNull(context, "context is null");
        requireNonNull(refuse, "refuse is null");
        requireNonNull(admitted, "admitted is null");
        if (!permits.tryAcquire()) {
            context.header("Retry-After", "1");
            refuse.accept(Refusal.TOO_BUSY);
            return;
        }
        try {
            admitted.run();
        } finally {
            permits.release();
        }
    }

    /**
     * The request's body as UTF-8 text, having read at most one byte more than {@link RequestLimits#maxRequestBytes}.
     * Empty after handing {@link Refusal#TOO_LARGE} or {@link Refusal#UNREADABLE} to {@code refuse}: the caller then
     * answers nothing more.
     */
    public Optional<String> body(Context context, Consumer<Refusal> refuse) {
        requireNonNull(context, "context is null");
        requireNonNull(refuse, "refuse is null");
        try {
            return Optional.of(new String(
                    BoundedBody.read(
                            context.req().getInputStream(),
                            context.req().getContentLengthLong(),
                            limits.maxRequestBytes()),
                    StandardCharsets.UTF_8));
        } catch (BoundedBody.TooLargeException e) {
            refuse.accept(Refusal.TOO_LARGE);
        } catch (IOException e) {
            // The client's fault (a body shorter than declared, a dropped connection): not worth more than debug.
            LOG.debug("Could not read the body of {} {}: {}", context.method(), context.path(), e.toString());
            refuse.accept(Refusal.UNREADABLE);
        }
        return Optional.empty();
    }

    /** Why a request was refused before its server handled it, with the status to answer. */
    public enum Refusal {
        /** Every permit is taken; {@code Retry-After} is set. */
        TOO_BUSY(503),
        /** The body is larger than {@link RequestLimits#maxRequestBytes}. */
        TOO_LARGE(413),
        /** The body could not be read. */
        UNREADABLE(400);

        private final int status;

        Refusal(int status) {
            this.status = status;
        }

        public int status() {
            return status;
        }
    }
}
