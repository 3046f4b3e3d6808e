package io.fleetlake.trino.audit;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One SQL file of the audit library ({@code src/main/resources/io/fleetlake/trino/audit/*.sql}). Values are bound as
 * {@code ?} parameters; a file may also hold placeholders in braces, {@code as_of} (the time-travel clause, see
 * {@link AsOf}) and {@code table} (a fleet table name from {@link AuditTable}), which are replaced by text that the
 * audit code produced itself, never by user input.
 *
 * @param name file name without {@code .sql}
 * @param text the file's content
 */
record SqlTemplate(String name, String text) {
    static final String AS_OF = "as_of";
    static final String TABLE = "table";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");
    private static final Pattern TRAILING_SPACE = Pattern.compile("[ \\t]+$", Pattern.MULTILINE);

    SqlTemplate {
        requireNonNull(name, "name is null");
        requireNonNull(text, "text is null");
    }

    /** Reads {@code <name>.sql} from the classpath, next to this class. */
    static SqlTemplate load(String name) {
        String resource = name + ".sql";
        try (InputStream input = SqlTemplate.class.getResourceAsStream(resource)) {
            if (input == null) {
                throw new IllegalStateException("Audit SQL file " + resource + " is missing from the classpath");
            }
            return new SqlTemplate(name, new String(input.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read audit SQL file " + resource, e);
        }
    }

    /**
     * The SQL with every placeholder replaced.
     *
     * @throws IllegalArgumentException when the file has a placeholder without a value, or a value has no placeholder
     */
    String render(Map<String, String> values) {
        requireNonNull(values, "values is null");
        Matcher matcher = PLACEHOLDER.matcher(text);
        StringBuilder rendered = new StringBuilder();
        Set<String> used = new HashSet<>();
        while (matcher.find()) {
            String key = matcher.group(1);
            String value = values.get(key);
            if (value == null) {
                throw new IllegalArgumentException(name + ".sql has placeholder {" + key + "} without a value");
            }
            used.add(key);
            matcher.appendReplacement(rendered, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(rendered);
        if (!used.containsAll(values.keySet())) {
            throw new IllegalArgumentException(
                    name + ".sql has no placeholder for " + values.keySet() + " (it uses " + used + ")");
        }
        // An empty placeholder leaves the space before it at the end of its line.
        return TRAILING_SPACE.matcher(rendered).replaceAll("").strip();
    }

    /** The {@code ?} placeholders of a statement, outside string literals, quoted identifiers and comments. */
    static int countPlaceholders(String sql) {
        int count = 0;
        int index = 0;
        while (index < sql.length()) {
            char character = sql.charAt(index);
            if (character == '\'' || character == '"') {
                int end = sql.indexOf(character, index + 1);
                // A doubled quote inside a literal ends one quoted run and starts the next: the loop handles both.
                index = end < 0 ? sql.length() : end + 1;
            } else if (character == '-' && sql.startsWith("--", index)) {
                int end = sql.indexOf('\n', index);
                index = end < 0 ? sql.length() : end + 1;
            } else if (character == '/' && sql.startsWith("/*", index)) {
                int end = sql.indexOf("*/", index + 2);
                index = end < 0 ? sql.length() : end + 2;
            } else {
                if (character == '?') {
                    count++;
                }
                index++;
            }
        }
        return count;
    }
}
