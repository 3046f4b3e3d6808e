package io.fleetlake.trino;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * Renders properties in {@link java.util.Properties} file syntax, in the map's order and without the timestamp comment
 * that {@link java.util.Properties#store} adds, so generated files are reproducible. Non-ASCII characters are written
 * as {@code \}{@code uXXXX} escapes, which read the same whether a file is loaded as ISO-8859-1 or as UTF-8.
 */
final class PropertiesFormat {
    private PropertiesFormat() {}

    static String render(Map<String, String> properties) {
        requireNonNull(properties, "properties is null");
        StringBuilder text = new StringBuilder();
        properties.forEach((key, value) -> {
            requireNonNull(value, () -> "value of " + key + " is null");
            text.append(escape(key, true))
                    .append('=')
                    .append(escape(value, false))
                    .append('\n');
        });
        return text.toString();
    }

    private static String escape(String text, boolean isKey) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (int index = 0; index < text.length(); index++) {
            char character = text.charAt(index);
            switch (character) {
                case '\\' -> escaped.append("\\\\");
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '\t' -> escaped.append("\\t");
                case '\f' -> escaped.append("\\f");
                case '=', ':', '#', '!', ' ' -> {
                    // Separators matter only in keys; in a value only a leading space would be trimmed.
                    if (isKey || (character == ' ' && index == 0)) {
                        escaped.append('\\');
                    }
                    escaped.append(character);
                }
                default -> {
                    if (character < 0x20 || character > 0x7e) {
                        escaped.append(String.format("\\u%04x", (int) character));
                    } else {
                        escaped.append(character);
                    }
                }
            }
        }
        return escaped.toString();
    }
}
