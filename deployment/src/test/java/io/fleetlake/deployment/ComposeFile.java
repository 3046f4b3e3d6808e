package io.fleetlake.deployment;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A Compose file read with YAML anchors and merge keys resolved, as Compose reads it, and its values interpolated
 * with the given variables (see {@link ComposeInterpolation}).
 */
final class ComposeFile {
    private final Path file;
    private final Map<String, Map<String, Object>> services;
    private final Set<String> referencedVariables;
    private final ComposeInterpolation interpolation;

    private ComposeFile(Path file, Map<String, Object> document, DotEnvFile variables) {
        this.file = file;
        this.services = services(file, document);
        this.referencedVariables = new TreeSet<>();
        collectVariables(document, referencedVariables);
        this.interpolation = new ComposeInterpolation(variables.variables());
    }

    static ComposeFile read(Path file, DotEnvFile variables) {
        requireNonNull(file, "file is null");
        requireNonNull(variables, "variables is null");
        Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
        try (Reader reader = Files.newBufferedReader(file)) {
            return new ComposeFile(file, yaml.load(reader), variables);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    Set<String> serviceNames() {
        return services.keySet();
    }

    /** Every variable the file refers to with {@code $NAME} or {@code ${NAME...}}. */
    Set<String> referencedVariables() {
        return Set.copyOf(referencedVariables);
    }

    Optional<String> image(String service) {
        return Optional.ofNullable(definition(service).get("image")).map(value -> interpolate(service, value));
    }

    /**
     * The service's {@code environment}, interpolated, in either of Compose's forms (a map, or a list of
     * {@code NAME=value}).
     */
    Map<String, String> environment(String service) {
        Object environment = definition(service).get("environment");
        Map<String, String> result = new TreeMap<>();
        if (environment == null) {
            return result;
        }
        if (environment instanceof Map<?, ?> map) {
            map.forEach((name, value) -> {
                if (value == null) {
                    throw new IllegalStateException("Service " + service + " in " + file + " passes " + name
                            + " through from the shell: give it a value (from .env)");
                }
                result.put(name.toString(), interpolate(service, value));
            });
        } else if (environment instanceof List<?> list) {
            for (Object entry : list) {
                String text = interpolate(service, entry);
                int separator = text.indexOf('=');
                if (separator <= 0) {
                    throw new IllegalStateException("Service " + service + " in " + file + " passes " + text
                            + " through from the shell: give it a value (from .env)");
                }
                result.put(text.substring(0, separator), text.substring(separator + 1));
            }
        } else {
            throw new IllegalStateException(
                    "Service " + service + " in " + file + " has an environment that is neither a map nor a list");
        }
        return result;
    }

    /** The published ports of a service, as written ({@code host:published:container}), variables interpolated. */
    List<String> ports(String service) {
        return interpolatedList(service, "ports");
    }

    /** The services this one waits for and the condition of each ({@code service_started} for the list form). */
    Map<String, String> dependsOn(String service) {
        Object dependsOn = definition(service).get("depends_on");
        Map<String, String> result = new TreeMap<>();
        if (dependsOn instanceof Map<?, ?> map) {
            map.forEach((name, condition) -> result.put(
                    name.toString(),
                    condition instanceof Map<?, ?> details
                            ? String.valueOf(details.get("condition"))
                            : "service_started"));
        } else if (dependsOn instanceof List<?> list) {
            list.forEach(name -> result.put(name.toString(), "service_started"));
        }
        return result;
    }

    /** The service's {@code volumes} in their short form, as written, variables interpolated. */
    List<String> volumes(String service) {
        return interpolatedList(service, "volumes");
    }

    private List<String> interpolatedList(String service, String key) {
        Object values = definition(service).get(key);
        if (!(values instanceof List<?> list)) {
            return List.of();
        }
        return list.stream().map(value -> interpolate(service, value)).toList();
    }

    /**
     * The service's {@code mem_limit} in bytes.
     *
     * @throws IllegalStateException when it has none
     */
    long memoryLimitBytes(String service) {
        Object limit = definition(service).get("mem_limit");
        if (limit == null) {
            throw new IllegalStateException("Service " + service + " in " + file + " has no mem_limit");
        }
        String text = interpolate(service, limit).strip().toLowerCase(java.util.Locale.ROOT);
        long factor =
                switch (text.charAt(text.length() - 1)) {
                    case 'k' -> 1L << 10;
                    case 'm' -> 1L << 20;
                    case 'g' -> 1L << 30;
                    default -> 1;
                };
        String digits = factor == 1 ? text : text.substring(0, text.length() - 1);
        return Long.parseLong(digits) * factor;
    }

    private Map<String, Object> definition(String service) {
        Map<String, Object> definition = services.get(service);
        if (definition == null) {
            throw new IllegalArgumentException(
                    "No service " + service + " in " + file + "; services: " + services.keySet());
        }
        return definition;
    }

    private String interpolate(String service, Object value) {
        try {
            return interpolation.interpolate(String.valueOf(value));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("Service " + service + " in " + file + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, Map<String, Object>> services(Path file, Map<String, Object> document) {
        if (document == null || !(document.get("services") instanceof Map<?, ?> services)) {
            throw new IllegalStateException(file + " has no services");
        }
        Map<String, Map<String, Object>> result = new LinkedHashMap<>();
        services.forEach((name, definition) -> {
            if (!(definition instanceof Map<?, ?> map)) {
                throw new IllegalStateException("Service " + name + " in " + file + " is not a mapping");
            }
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, value) -> copy.put(key.toString(), value));
            result.put(name.toString(), copy);
        });
        return result;
    }

    private static void collectVariables(Object node, Set<String> names) {
        if (node instanceof Map<?, ?> map) {
            map.values().forEach(value -> collectVariables(value, names));
        } else if (node instanceof List<?> list) {
            list.forEach(value -> collectVariables(value, names));
        } else if (node instanceof String text) {
            names.addAll(ComposeInterpolation.referencedVariables(text));
        }
    }
}
