package io.fleetlake.dashboard.http;

import static java.util.Objects.requireNonNull;

/** What a handler answers with; the router turns it into a 200 response. */
public sealed interface Reply {
    /** A value the router writes as JSON. */
    static Reply json(Object value) {
        return new Json(value);
    }

    /** A text body (HTML, JavaScript, CSS, GeoJSON) with its media type. */
    static Reply text(String contentType, String body) {
        return new Text(contentType, body);
    }

    /** A value written as JSON. */
    record Json(Object value) implements Reply {
        public Json {
            requireNonNull(value, "value is null");
        }
    }

    /** A text body with its media type. */
    record Text(String contentType, String body) implements Reply {
        public Text {
            requireNonNull(contentType, "contentType is null");
            requireNonNull(body, "body is null");
        }
    }
}
