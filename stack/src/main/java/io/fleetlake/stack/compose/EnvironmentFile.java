package io.fleetlake.stack.compose;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Docker Compose environment file ({@code .env}, {@code .env.example}) as its lines: comments and blank lines are
 * kept as they are, so that a file derived from {@code .env.example} keeps its explanations. Only the plain
 * {@code NAME=value} form is understood (no quotes, no {@code export}): the form our {@code .env.example} uses.
 */
public final class EnvironmentFile {
    private static final Pattern ASSIGNMENT = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=(.*)");

    private final List<String> lines;

    private EnvironmentFile(List<String> lines) {
        this.lines = List.copyOf(lines);
    }

    /**
     * @throws IllegalArgumentException at a line that is neither a comment, blank nor {@code NAME=value}
     */
    public static EnvironmentFile parse(String text) {
        requireNonNull(text, "text is null");
        List<String> lines = text.lines().toList();
        for (int index = 0; index < lines.size(); index++) {
            String line = lines.get(index).strip();
            if (!line.isEmpty()
                    && !line.startsWith("#")
                    && !ASSIGNMENT.matcher(line).matches()) {
                throw new IllegalArgumentException(
                        "Line " + (index + 1) + " is not NAME=value, a comment or blank: " + lines.get(index));
            }
        }
        return new EnvironmentFile(lines);
    }

    /** Every variable and its value, in file order. */
    public Map<String, String> values() {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : lines) {
            assignment(line).ifPresent(matcher -> values.put(matcher.group(1), matcher.group(2)));
        }
        return values;
    }

    /** This file with {@code replacements}' variables set to their values; every one must be in the file. */
    public EnvironmentFile with(Map<String, String> replacements) {
        requireNonNull(replacements, "replacements is null");
        Map<String, String> values = values();
        for (String name : replacements.keySet()) {
            if (!values.containsKey(name)) {
                throw new IllegalArgumentException("No variable " + name + " in the file");
            }
        }
        List<String> replaced = new ArrayList<>(lines.size());
        for (String line : lines) {
            Optional<Matcher> matcher = assignment(line);
            replaced.add(matcher.filter(found -> replacements.containsKey(found.group(1)))
                    .map(found -> found.group(1) + "=" + replacements.get(found.group(1)))
                    .orElse(line));
        }
        return new EnvironmentFile(replaced);
    }

    public String render() {
        return String.join("\n", lines) + "\n";
    }

    private static Optional<Matcher> assignment(String line) {
        Matcher matcher = ASSIGNMENT.matcher(line.strip());
        return matcher.matches() ? Optional.of(matcher) : Optional.empty();
    }
}
