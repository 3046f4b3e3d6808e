package io.fleetlake.http;

import static java.util.Objects.requireNonNull;

import io.javalin.http.ContentType;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.util.Optional;

/**
 * A response with a JSON body or none, independent of the server's routing: the catalog's and the planning API's.
 *
 * @param status the HTTP status code
 * @param body the JSON body, empty for responses without one (204)
 */
public record JsonResponse(int status, Optional<String> body) {
    public static final int OK = 200;
    public static final int NO_CONTENT = 204;

    public JsonResponse {
        requireNonNull(body, "body is null");
    }

    public static JsonResponse json(int status, String body) {
        return new JsonResponse(status, Optional.of(body));
    }

    public static JsonResponse ok(String body) {
        return json(OK, body);
    }

    public static JsonResponse noContent() {
        return new JsonResponse(NO_CONTENT, Optional.empty());
    }

    /** Answers {@code context} with it; without the body for a HEAD request. */
    public void writeTo(Context context) {
        context.status(status);
        if (context.method() != HandlerType.HEAD) {
            body.ifPresent(
                    json -> context.contentType(ContentType.APPLICATION_JSON).result(json));
        }
    }
}
