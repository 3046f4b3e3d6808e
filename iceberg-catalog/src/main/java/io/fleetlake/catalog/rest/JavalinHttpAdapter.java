package io.fleetlake.catalog.rest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fleetlake.common.http.FailedAttemptLimiter;
import io.fleetlake.http.HttpRequest;
import io.fleetlake.http.JavalinServer;
import io.fleetlake.http.JsonResponse;
import io.fleetlake.http.RequestAdmission;
import io.fleetlake.http.RequestLimits;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP layer: a Javalin (Jetty) server that admits a request, hands it to a {@link RestRouter} and writes back what
 * it returns. It does no routing and no error mapping of its own; what it refuses before the router sees a request:
 *
 * <ol>
 *   <li>{@link RequestLimits#maxConcurrentRequests} requests already being served ({@code
 *       catalog.max-concurrent-requests}): 503 with {@code Retry-After}, at once;
 *   <li>a token request ({@code POST /v1/oauth/tokens}) from an address whose token requests were refused (401) as
 *       often as the {@link FailedAttemptLimiter} allows ({@code catalog.token-max-failures} within {@code
 *       catalog.token-failure-window}): 429 with {@code Retry-After}, whatever it sends, so that nobody can guess client
 *       secrets as fast as the catalog hashes them (the dashboard's sign-in is limited the same way);
 *   <li>a body over {@link RequestLimits#maxRequestBytes} ({@code catalog.max-request-bytes}), declared or chunked:
 *       413, having read at most one byte more.
 * </ol>
 *
 * Both admission checks are the shared {@link RequestAdmission}'s; the refusals are written in the REST spec's error
 * body, the token endpoint's in RFC 6749's. The address is the peer's, never a forwarded-for header, which anyone can
 * set.
 */
public final class JavalinHttpAdapter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(JavalinHttpAdapter.class);
    private static final ObjectMapper ERRORS = new ObjectMapper();

    private final JavalinServer server;

    private JavalinHttpAdapter(JavalinServer server) {
        this.server = server;
    }

    /**
     * Starts listening.
     *
     * @param tokenFailures the refused token requests by address; its limits are the catalog's configuration
     * @param port the port, or 0 for a free one (see {@link #port()})
     */
    public static JavalinHttpAdapter start(
            RestRouter router, RequestLimits limits, FailedAttemptLimiter tokenFailures, String host, int port) {
        requireNonNull(router, "router is null");
        requireNonNull(host, "host is null");
        Admission admission = new Admission(
                new RequestAdmission(requireNonNull(limits, "limits is null")),
                requireNonNull(tokenFailures, "tokenFailures is null"));
        return new JavalinHttpAdapter(JavalinServer.start(host, port, admission.requests(), routing -> {
            for (HttpMethod method : HttpMethod.values()) {
                routing.addHttpHandler(
                        HandlerType.valueOf(method.name()), "/*", context -> admission.serve(router, context));
            }
        }));
    }

    /** The bound port. */
    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.close();
    }

    /** The checks before a request reaches the router. */
    private record Admission(RequestAdmission requests, FailedAttemptLimiter tokenFailures) {
        void serve(RestRouter router, Context context) {
            HttpMethod method = HttpMethod.valueOf(context.method().name());
            Consumer<RequestAdmission.Refusal> refuse =
                    refused -> answer(refused).writeTo(context);
            requests.serve(context, refuse, () -> {
                boolean tokenRequest =
                        method == HttpMethod.POST && context.path().equals(CatalogRoutes.TOKENS.path());
                String address = context.req().getRemoteAddr();
                if (tokenRequest && tokenFailures.blocked(address)) {
                    long seconds = Math.max(1, tokenFailures.retryAfter(address).toSeconds());
                    LOG.warn("Refused a token request from {}: too many failed attempts", address);
                    context.header("Retry-After", Long.toString(seconds));
                    oauthRefusal(429, "Too many failed token requests from this address; retry in " + seconds + " s")
                            .writeTo(context);
                    return;
                }
                Optional<String> body = method == HttpMethod.POST ? requests.body(context, refuse) : Optional.of("");
                if (body.isEmpty()) {
                    return;
                }
                JsonResponse response = router.handle(HttpRequest.of(context).withBody(body.get()));
                if (tokenRequest && response.status() == 401) {
                    tokenFailures.failed(address);
                }
                response.writeTo(context);
            });
        }

        /**
         * The REST spec's error body, as the router writes it for its own refusals; an unreadable body is a {@code
         * BadRequestException}, as the router's own 400 answers are.
         */
        private JsonResponse answer(RequestAdmission.Refusal refused) {
            return switch (refused) {
                case TOO_BUSY ->
                    refusal(
                            refused.status(),
                            "ServiceUnavailable",
                            "The catalog is serving as many requests as it allows; retry");
                case TOO_LARGE ->
                    refusal(
                            refused.status(),
                            "PayloadTooLarge",
                            "The request body is larger than "
                                    + requests.limits().maxRequestBytes() + " bytes");
                case UNREADABLE ->
                    refusal(refused.status(), "BadRequestException", "The request body could not be read");
            };
        }
    }

    private static JsonResponse refusal(int status, String type, String message) {
        return JsonResponse.json(
                status,
                ERRORS.createObjectNode()
                        .set(
                                "error",
                                ERRORS.createObjectNode()
                                        .put("message", message)
                                        .put("type", type)
                                        .put("code", status))
                        .toString());
    }

    /** RFC 6749's error body, which Iceberg's clients expect from the token endpoint. */
    private static JsonResponse oauthRefusal(int status, String description) {
        return JsonResponse.json(
                status,
                ERRORS.createObjectNode()
                        .put("error", "invalid_request")
                        .put("error_description", description)
                        .toString());
    }
}
