package io.fleetlake.http;

import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A path template of a routing table, such as {@code /v1/vehicles/{vehicle_id}/route}: a segment {@code {name}} matches
 * any one segment and binds it to {@code name}, any other segment matches itself. Leading and trailing slashes do not
 * count.
 */
public final class PathTemplate {
    private final String template;
    private final List<String> segments;

    private PathTemplate(String template) {
        this.template = template;
        this.segments = segments(template);
    }

    public static PathTemplate of(String template) {
        return new PathTemplate(requireNonNull(template, "template is null"));
    }

    public String template() {
        return template;
    }

    /** The variables when the path's raw segments match this template, compared as they are. */
    public Optional<Map<String, String>> match(List<String> pathSegments) {
        return match(pathSegments, UnaryOperator.identity(), UnaryOperator.identity());
    }

    /**
     * The variables when the path's segments match this template.
     *
     * @param literalForm what a segment is compared with a fixed segment of the template as, such as {@link #decode}
     * @param variableForm what a segment is bound to a variable as, such as {@link #decode}; may throw to refuse it
     */
    public Optional<Map<String, String>> match(
            List<String> pathSegments, UnaryOperator<String> literalForm, UnaryOperator<String> variableForm) {
        requireNonNull(pathSegments, "pathSegments is null");
        if (pathSegments.size() != segments.size()) {
            return Optional.empty();
        }
        Map<String, String> variables = new HashMap<>();
        for (int index = 0; index < segments.size(); index++) {
            String expected = segments.get(index);
            String actual = pathSegments.get(index);
            if (expected.startsWith("{") && expected.endsWith("}")) {
                variables.put(expected.substring(1, expected.length() - 1), variableForm.apply(actual));
            } else if (!expected.equals(literalForm.apply(actual))) {
                return Optional.empty();
            }
        }
        return Optional.of(variables);
    }

    /** The segments of a path without leading and trailing slashes: {@code /v1/config/} gives [v1, config]. */
    public static List<String> segments(String path) {
        String trimmed = path;
        while (trimmed.startsWith("/")) {
            trimmed = trimmed.substring(1);
        }
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed.isEmpty() ? List.of() : List.of(trimmed.split("/", -1));
    }

    /**
     * A percent-decoded path segment.
     *
     * @throws IllegalArgumentException when the segment holds a malformed escape
     */
    public static String decode(String segment) {
        // In a path a plus is a plus, not an encoded space as in a form.
        return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return template;
    }
}
