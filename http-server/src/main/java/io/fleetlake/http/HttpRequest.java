package io.fleetlake.http;

import static java.util.Objects.requireNonNull;

import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One HTTP request as the servers' routers see it (the catalog's, the dashboard's, the planning API's), independent of
 * the HTTP server that received it.
 *
 * @param method the HTTP method in upper case, such as {@code GET}
 * @param path the raw (still URL-encoded) path, such as {@code /api/vehicles/VH-0001}
 * @param queryParameters decoded query parameters; the first value of each
 * @param headers the first value of each header, by name in lower case; {@code Authorization}, {@code Cookie} and
 *     {@code X-CSRF-Token} may hold secrets and are never logged
 * @param body the body (already bounded by the HTTP layer), empty when there is none
 * @param remoteAddress the address of the peer that sent it (never a forwarded-for header, which anyone can set)
 */
public record HttpRequest(
        String method,
        String path,
        Map<String, String> queryParameters,
        Map<String, String> headers,
        String body,
        String remoteAddress) {
    public HttpRequest {
        requireNonNull(method, "method is null");
        requireNonNull(path, "path is null");
        queryParameters = Map.copyOf(requireNonNull(queryParameters, "queryParameters is null"));
        TreeMap<String, String> lowerCase = new TreeMap<>();
        requireNonNull(headers, "headers is null").forEach((name, value) -> lowerCase.put(lowerCase(name), value));
        headers = Map.copyOf(lowerCase);
        requireNonNull(body, "body is null");
        requireNonNull(remoteAddress, "remoteAddress is null");
    }

    /** The request Javalin received, without its body: the adapter reads that within its limits ({@link #withBody}). */
    public static HttpRequest of(Context context) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String name : context.headerMap().keySet()) {
            headers.putIfAbsent(name, context.header(name));
        }
        // The peer's address, never X-Forwarded-For (Javalin's ip() reads it): anyone can set that header.
        return new HttpRequest(
                context.method().name(),
                context.path(),
                QueryParameters.firstValues(context),
                headers,
                "",
                context.req().getRemoteAddr());
    }

    /** A request without headers or body, as a test sends it to a router. */
    public HttpRequest(String method, String path, Map<String, String> queryParameters) {
        this(method, path, queryParameters, Map.of(), "", "unknown");
    }

    /** This request with the body the HTTP layer read, once it was admitted. */
    public HttpRequest withBody(String body) {
        return new HttpRequest(method, path, queryParameters, headers, body, remoteAddress);
    }

    /** A header's first value. */
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(lowerCase(name)));
    }

    @Override
    public String toString() {
        // Headers hold credentials, the session cookie and the CSRF token, the body a password.
        return "HttpRequest{" + method + " " + path + " from " + remoteAddress + "}";
    }

    private static String lowerCase(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
