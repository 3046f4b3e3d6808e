package io.fleetlake.dashboard.http;

import static java.util.Objects.requireNonNull;

/**
 * One HTTP response, independent of the HTTP server that sends it.
 *
 * @param status the HTTP status code
 * @param contentType the media type of the body, with its charset for text
 * @param body the body
 */
public record HttpResponse(int status, String contentType, String body) {
    public static final int OK = 200;
    public static final String JSON = "application/json; charset=utf-8";

    public HttpResponse {
        requireNonNull(contentType, "contentType is null");
        requireNonNull(body, "body is null");
    }
}
