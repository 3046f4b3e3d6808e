package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.http.BoundedBody;
import io.fleetlake.common.http.FailedAttemptLimiter;
import io.fleetlake.http.QueryParameters;
import io.javalin.Javalin;
import io.javalin.http.ContentType;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP layer: a Javalin (Jetty) server that admits a request, hands it to a {@link RestRouter} and writes back what
 * it returns. It does no routing and no error mapping of its own; what it refuses before the router sees a request:
 *
 * <ol>
 *   <li>{@value #MAX_CONCURRENT_REQUESTS} requests already being served: 503 with {@code Retry-After}, at once;
 *   <li>a body over {@value #MAX_REQUEST_BYTES} bytes, declared or chunked: 413, having read at most one byte more;
 *   <li>a token request ({@code POST /v1/oauth/tokens}) from an address whose token requests were refused (401) {@value
 *       #TOKEN_MAX_FAILURES} times within {@link #TOKEN_FAILURE_WINDOW}: 429 with {@code Retry-After}, whatever it
 *       sends, so that nobody can guess client secrets as fast as the catalog hashes them (the dashboard's sign-in
 *       uses the same {@link FailedAttemptLimiter}).
 * </ol>
 *
 * The address is the peer's, never a forwarded-for header, which anyone can set.
 */
public final class JavalinHttpAdapter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JavalinHttpAdapter.class);
    private static final ObjectMapper ERRORS = new ObjectMapper();

    /** Table metadata updates are small, but a create request carries a whole schema; 16 MiB leaves ample room. */
    static final long MAX_REQUEST_BYTES = 16L * 1024 * 1024;
    /**
     * The stack's clients (pipeline, maintenance, Trino, Spark, exporter, notebooks) hold a few connections each; 64
     * at once bounds what the catalog holds in memory ({@value #MAX_REQUEST_BYTES} bytes each at most).
     */
    static final int MAX_CONCURRENT_REQUESTS = 64;

    static final int TOKEN_MAX_FAILURES = 10;
    static final Duration TOKEN_FAILURE_WINDOW = Duration.ofMinutes(15);

    private final Javalin server;

    private JavalinHttpAdapter(Javalin server) {
        this.server = server;
    }

    /**
     * Starts listening.
     *
     * @param port the port, or 0 for a free one (see {@link #port()})
     */
    public static JavalinHttpAdapter start(RestRouter router, String host, int port) {
        requireNonNull(router, "router is null");
        requireNonNull(host, "host is null");
        Admission admission = new Admission(
                new Semaphore(MAX_CONCURRENT_REQUESTS),
                new FailedAttemptLimiter(TOKEN_MAX_FAILURES, TOKEN_FAILURE_WINDOW, Clock.systemUTC()));
        Javalin server = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.http.maxRequestSize = MAX_REQUEST_BYTES;
            config.router.mount(routing -> {
                for (HttpMethod method : HttpMethod.values()) {
                    routing.addHttpHandler(
                            HandlerType.valueOf(method.name()), "/*", context -> admission.serve(router, context));
                }
            });
        });
        server.start(host, port);
        return new JavalinHttpAdapter(server);
    }

    /** The bound port. */
    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.stop();
    }

    /** The checks before a request reaches the router. */
    private record Admission(Semaphore permits, FailedAttemptLimiter tokenFailures) {
        void serve(RestRouter router, Context context) {
            HttpMethod method = HttpMethod.valueOf(context.method().name());
            if (!permits.tryAcquire()) {
                context.header("Retry-After", "1");
                write(context, method, refusal(503, "The catalog is serving as many requests as it allows; retry"));
                return;
            }
            try {
                boolean tokenRequest =
                        method == HttpMethod.POST && context.path().equals(CatalogRoutes.TOKENS.path());
                String address = context.req().getRemoteAddr();
                if (tokenRequest && tokenFailures.blocked(address)) {
                    long seconds = Math.max(1, tokenFailures.retryAfter(address).toSeconds());
                    LOG.warn("Refused a token request from {}: too many failed attempts", address);
                    context.header("Retry-After", Long.toString(seconds));
                    write(
                            context,
                            method,
                            oauthRefusal(
                                    429,
                                    "Too many failed token requests from this address; retry in " + seconds + " s"));
                    return;
                }
                String body;
                try {
                    body = method == HttpMethod.POST
                            ? new String(
                                    BoundedBody.read(
                                            context.req().getInputStream(),
                                            context.req().getContentLengthLong(),
                                            MAX_REQUEST_BYTES),
                                    StandardCharsets.UTF_8)
                            : "";
                } catch (BoundedBody.TooLargeException e) {
                    write(context, method, refusal(413, e.getMessage()));
                    return;
                } catch (IOException e) {
                    LOG.debug("Could not read the body of {} {}: {}", method, context.path(), e.toString());
                    write(context, method, refusal(400, "The request body could not be read"));
                    return;
                }
                RestResponse response = router.handle(new RestRequest(
                        method,
                        context.path(),
                        QueryParameters.firstValues(context),
                        body,
                        Optional.ofNullable(context.header("Authorization"))));
                if (tokenRequest && response.status() == 401) {
                    tokenFailures.failed(address);
                }
                write(context, method, response);
            } finally {
                permits.release();
            }
        }
    }

    /** The REST spec's error body, as the router writes it for its own refusals. */
    private static RestResponse refusal(int status, String message) {
        return RestResponse.json(
                status,
                ERRORS.createObjectNode()
                        .set(
                                "error",
                                ERRORS.createObjectNode()
                                        .put("message", message)
                                        .put("type", status == 413 ? "PayloadTooLarge" : "ServiceUnavailable")
                                        .put("code", status))
                        .toString());
    }

    /** RFC 6749's error body, which Iceberg's clients expect from the token endpoint. */
    private static RestResponse oauthRefusal(int status, String description) {
        return RestResponse.json(
                status,
                ERRORS.createObjectNode()
                        .put("error", "invalid_request")
                        .put("error_description", description)
                        .toString());
    }

    private static void write(Context context, HttpMethod method, RestResponse response) {
        context.status(response.status());
        if (method != HttpMethod.HEAD) {
            response.body().ifPresent(json -> context.contentType(ContentType.APPLICATION_JSON)
                    .result(json));
        }
    }
}
