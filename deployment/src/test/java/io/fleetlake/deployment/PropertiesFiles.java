package io.fleetlake.deployment;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The configuration formats of the third-party servers in the deployment, resolved as those servers resolve them. */
final class PropertiesFiles {
    private static final Pattern TRINO_ENVIRONMENT_REFERENCE = Pattern.compile("\\$\\{ENV:([A-Za-z0-9_]+)}");

    private PropertiesFiles() {}

    /**
     * A Trino properties file with every {@code ${ENV:NAME}} replaced by the variable of the Trino container's
     * environment, as Trino does at start.
     *
     * @throws IllegalStateException when a referenced variable is not in the environment: Trino would not start
     */
    static Map<String, String> trinoProperties(Path file, Map<String, String> environment) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
        Map<String, String> resolved = new TreeMap<>();
        for (String name : properties.stringPropertyNames()) {
            Matcher matcher = TRINO_ENVIRONMENT_REFERENCE.matcher(
                    properties.getProperty(name).strip());
            StringBuilder value = new StringBuilder();
            while (matcher.find()) {
                String variable = matcher.group(1);
                if (!environment.containsKey(variable)) {
                    throw new IllegalStateException(file + ": " + name + " refers to ${ENV:" + variable
                            + "}, which the trino service's environment does not set");
                }
                matcher.appendReplacement(value, Matcher.quoteReplacement(environment.get(variable)));
            }
            matcher.appendTail(value);
            resolved.put(name, value.toString());
        }
        return resolved;
    }

    /**
     * The official Flink image's {@code FLINK_PROPERTIES}: one {@code key: value} per line, appended to the Flink
     * configuration by the image's entry point.
     */
    static Map<String, String> flinkProperties(String text) {
        Map<String, String> properties = new TreeMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int separator = line.indexOf(':');
            if (separator <= 0) {
                throw new IllegalArgumentException("FLINK_PROPERTIES line is not 'key: value': " + line);
            }
            properties.put(
                    line.substring(0, separator).strip(),
                    line.substring(separator + 1).strip());
        }
        return properties;
    }
}
