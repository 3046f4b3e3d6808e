package io.fleetlake.deployment;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The variables of a Compose {@code .env} file: {@code NAME=value} lines; blank lines and lines starting with
 * {@code #} are skipped, one pair of surrounding quotes is removed.
 *
 * @param variables name to value, in file order
 */
record DotEnvFile(Map<String, String> variables) {
    DotEnvFile {
        variables = Map.copyOf(requireNonNull(variables, "variables is null"));
    }

    static DotEnvFile read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        Map<String, String> variables = new LinkedHashMap<>();
        for (int index = 0; index < lines.size(); index++) {
            String line = lines.get(index).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int separator = line.indexOf('=');
            if (separator <= 0) {
                throw new IllegalArgumentException(
                        file + " line " + (index + 1) + " is not NAME=value nor a comment: " + line);
            }
            String name = line.substring(0, separator).strip();
            if (variables.put(name, unquote(line.substring(separator + 1).strip())) != null) {
                throw new IllegalArgumentException(file + " sets " + name + " twice (line " + (index + 1) + ")");
            }
        }
        return new DotEnvFile(variables);
    }

    private static String unquote(String value) {
        boolean quoted = value.length() >= 2
                && (value.startsWith("\"") && value.endsWith("\"") || value.startsWith("'") && value.endsWith("'"));
        return quoted ? value.substring(1, value.length() - 1) : value;
    }
}
