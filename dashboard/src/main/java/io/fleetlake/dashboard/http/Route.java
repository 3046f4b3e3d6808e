package io.fleetlake.dashboard.http;

import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One entry of the routing table: a GET path such as {@code /api/vehicles/{id}} and its handler. Every route of the
 * dashboard is read-only, so GET is the only method served.
 *
 * @param path the path template; a segment {@code {name}} matches any one segment
 * @param handler what answers it
 */
public record Route(String path, RouteHandler handler) {
    public Route {
        requireNonNull(path, "path is null");
        requireNonNull(handler, "handler is null");
    }

    public static Route get(String path, RouteHandler handler) {
        return new Route(path, handler);
    }

    /** The decoded path variables when the raw path matches the template. */
    Optional<Map<String, String>> match(List<String> rawSegments) {
        List<String> template = segments(path);
        if (rawSegments.size() != template.size()) {
            return Optional.empty();
        }
        Map<String, String> variables = new HashMap<>();
        for (int index = 0; index < template.size(); index++) {
            String expected = template.get(index);
            String actual = decode(rawSegments.get(index));
            if (expected.startsWith("{") && expected.endsWith("}")) {
                variables.put(expected.substring(1, expected.length() - 1), actual);
            } else if (!expected.equals(actual)) {
                return Optional.empty();
            }
        }
        return Optional.of(variables);
    }

    /** The segments of a path without leading and trailing slashes: {@code /api/summary/} gives [api, summary]. */
    static List<String> segments(String path) {
        String trimmed = path.replaceAll("^/+", "").replaceAll("/+$", "");
        return trimmed.isEmpty() ? List.of() : List.of(trimmed.split("/", -1));
    }

    private static String decode(String segment) {
        // In a path a plus is a plus, not an encoded space as in a form.
        return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
}
