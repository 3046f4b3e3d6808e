package io.fleetlake.common.http;

import static java.util.Objects.requireNonNull;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decodes an {@code application/x-www-form-urlencoded} body, such as a sign-in form or an OAuth2 token request: the
 * first value of each field.
 */
public final class FormFields {
    private FormFields() {}

    /** @throws IllegalArgumentException when a field is not valid URL encoding (the message holds no value) */
    public static Map<String, String> decode(String body) {
        requireNonNull(body, "body is null");
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : body.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = decodeOne(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decodeOne(pair.substring(equals + 1));
            fields.putIfAbsent(name, value);
        }
        return fields;
    }

    private static String decodeOne(String value) {
        try {
            return URLDecoder.decode(value, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            // Without the value: the field may be a password.
            throw new IllegalArgumentException("Malformed form field in the request body", e);
        }
    }
}
