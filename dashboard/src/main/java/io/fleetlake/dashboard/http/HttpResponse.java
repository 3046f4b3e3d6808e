package io.fleetlake.dashboard.http;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One HTTP response, independent of the HTTP server that sends it.
 *
 * @param status the HTTP status code
 * @param contentType the media type of the body, with its charset for text
 * @param body the body
 * @param headers further headers, such as {@code Set-Cookie} or {@code Location}
 */
public record HttpResponse(int status, String contentType, String body, Map<String, String> headers) {
    public static final int OK = 200;
    public static final String JSON = "application/json; charset=utf-8";
    public static final String HTML = "text/html; charset=utf-8";

    public HttpResponse {
        requireNonNull(contentType, "contentType is null");
        requireNonNull(body, "body is null");
        headers = Map.copyOf(requireNonNull(headers, "headers is null"));
    }

    public HttpResponse(int status, String contentType, String body) {
        this(status, contentType, body, Map.of());
    }

    /** A {@code 303 See Other} to {@code location}: after a form post, the browser follows it with a GET. */
    public static HttpResponse seeOther(String location) {
        return new HttpResponse(303, "text/plain; charset=utf-8", "", Map.of("Location", location));
    }

    /** This response with one more header. */
    public HttpResponse withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(requireNonNull(name, "name is null"), requireNonNull(value, "value is null"));
        return new HttpResponse(status, contentType, body, more);
    }
}
