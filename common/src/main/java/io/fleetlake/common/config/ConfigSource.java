package io.fleetlake.common.config;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Configuration values from layered sources. Later layers win: a properties file, then environment variables, then
 * explicit overrides (for example {@code --set key=value} on a command line).
 *
 * <p>Keys are {@code component.kebab-case}. The environment variable for a key is {@code FLEET_} followed by the key in
 * upper case with {@code .} and {@code -} replaced by {@code _}: {@code catalog.http-port} is read from
 * {@code FLEET_CATALOG_HTTP_PORT}. Every typed getter reports errors with the key, the offending value and the layer
 * it came from, so that a user can fix the right file or variable.
 *
 * <p>A source is immutable except for one thing: a source made by {@link #tracking()} records the keys looked up
 * through it and through every source derived from it, so that a deployment can find settings that no component reads
 * ({@link #unread(Map)}).
 */
public final class ConfigSource {
    public static final String ENVIRONMENT_PREFIX = "FLEET_";

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

    private final Map<String, Entry> entries;
    private final Optional<Set<String>> lookedUpKeys;

    private ConfigSource(Map<String, Entry> entries, Optional<Set<String>> lookedUpKeys) {
        this.entries = Map.copyOf(entries);
        this.lookedUpKeys = lookedUpKeys;
    }

    public static ConfigSource empty() {
        return new ConfigSource(Map.of(), Optional.empty());
    }

    /** Only the given values; useful for tests and programmatic configuration. */
    public static ConfigSource of(Map<String, String> values) {
        return empty().withOverrides(values, "explicit value");
    }

    /**
     * Loads the optional properties file, then the process environment.
     *
     * @param file a properties file, or empty when none was given
     */
    public static ConfigSource load(Optional<Path> file) {
        return load(file, System.getenv());
    }

    static ConfigSource load(Optional<Path> file, Map<String, String> environment) {
        requireNonNull(file, "file is null");
        requireNonNull(environment, "environment is null");
        ConfigSource source = empty();
        if (file.isPresent()) {
            source = source.withFile(file.get());
        }
        return source.withEnvironment(environment);
    }

    public ConfigSource withFile(Path file) {
        requireNonNull(file, "file is null");
        if (!Files.isRegularFile(file)) {
            throw new ConfigException(
                    "Configuration file " + file.toAbsolutePath() + " does not exist or is not a file");
        }
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new ConfigException(
                    "Cannot read configuration file " + file.toAbsolutePath() + ": " + e.getMessage(), e);
        }
        Map<String, String> values = new LinkedHashMap<>();
        properties
                .stringPropertyNames()
                .forEach(name -> values.put(name, properties.getProperty(name).trim()));
        return withOverrides(values, "file " + file);
    }

    /**
     * Adds the {@code FLEET_*} variables of the given environment. A variable maps onto every key already known whose
     * environment name matches; variables for keys not present in a lower layer are kept under their derived key
     * ({@code FLEET_CATALOG_HTTP_PORT} becomes {@code catalog.http.port}), which typed getters also consult.
     */
    public ConfigSource withEnvironment(Map<String, String> environment) {
        requireNonNull(environment, "environment is null");
        Map<String, Entry> merged = new LinkedHashMap<>(entries);
        environment.forEach((name, value) -> {
            if (isFleetVariable(name)) {
                merged.put(environmentMarker(name), new Entry(value.trim(), "environment variable " + name));
            }
        });
        return new ConfigSource(merged, lookedUpKeys);
    }

    public ConfigSource withOverrides(Map<String, String> values, String origin) {
        requireNonNull(values, "values is null");
        requireNonNull(origin, "origin is null");
        Map<String, Entry> merged = new LinkedHashMap<>(entries);
        values.forEach((key, value) -> {
            requireNonNull(value, () -> "value of " + key + " is null");
            merged.put(key, new Entry(value, origin));
            // An explicit key outranks an environment variable set for it in an earlier layer.
            merged.remove(environmentMarker(environmentName(key)));
        });
        return new ConfigSource(merged, lookedUpKeys);
    }

    /** The environment variable read for a key. */
    public static String environmentName(String key) {
        return ENVIRONMENT_PREFIX
                + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    private static String environmentMarker(String variableName) {
        return "$env:" + variableName;
    }

    /**
     * The same values, recording from now on every key looked up through the returned source or any source derived
     * from it ({@code withFile}, {@code withEnvironment}, {@code withOverrides}), whether or not a value is set. Each call
     * starts a new, empty record.
     */
    public ConfigSource tracking() {
        return new ConfigSource(entries, Optional.of(ConcurrentHashMap.newKeySet()));
    }

    /**
     * The keys looked up so far through the typed getters and {@link #string(String)}, sorted.
     *
     * @throws IllegalStateException when this source does not record lookups (see {@link #tracking()})
     */
    public Set<String> lookedUpKeys() {
        return Collections.unmodifiableSet(new TreeSet<>(recordedKeys()));
    }

    /**
     * The {@code FLEET_*} variables of {@code environment} that no lookup so far would have read: the variable names
     * that are not the {@link #environmentName(String) environment name} of any looked-up key, sorted. A component that
     * was configured through this source and leaves variables unread was given settings it ignores, usually a typo or a
     * key that was renamed.
     *
     * @throws IllegalStateException when this source does not record lookups (see {@link #tracking()})
     */
    public Set<String> unread(Map<String, String> environment) {
        requireNonNull(environment, "environment is null");
        Set<String> read = new TreeSet<>();
        recordedKeys().forEach(key -> read.add(environmentName(key)));
        Set<String> unread = new TreeSet<>();
        environment.keySet().forEach(name -> {
            if (isFleetVariable(name) && !read.contains(name)) {
                unread.add(name);
            }
        });
        return Collections.unmodifiableSet(unread);
    }

    private Set<String> recordedKeys() {
        return lookedUpKeys.orElseThrow(() -> new IllegalStateException(
                "This configuration source does not record lookups: create it with tracking()"));
    }

    private static boolean isFleetVariable(String name) {
        return name.startsWith(ENVIRONMENT_PREFIX) && name.length() > ENVIRONMENT_PREFIX.length();
    }

    private Optional<Entry> entry(String key) {
        lookedUpKeys.ifPresent(keys -> keys.add(key));
        Entry fromEnvironment = entries.get(environmentMarker(environmentName(key)));
        if (fromEnvironment != null) {
            return Optional.of(fromEnvironment);
        }
        return Optional.ofNullable(entries.get(key));
    }

    public Optional<String> string(String key) {
        return entry(key).map(Entry::value).filter(value -> !value.isEmpty());
    }

    public String string(String key, String defaultValue) {
        return string(key).orElse(defaultValue);
    }

    public String requiredString(String key) {
        return string(key)
                .orElseThrow(() -> new ConfigException("Missing required configuration " + key + " (set it in the"
                        + " configuration file or the environment variable " + environmentName(key) + ")"));
    }

    public int integer(String key, int defaultValue) {
        return parse(key, defaultValue, "an integer", Integer::parseInt);
    }

    public long longValue(String key, long defaultValue) {
        return parse(key, defaultValue, "an integer", Long::parseLong);
    }

    public double doubleValue(String key, double defaultValue) {
        return parse(key, defaultValue, "a number", Double::parseDouble);
    }

    public boolean bool(String key, boolean defaultValue) {
        return parse(key, defaultValue, "true or false", value -> {
            if (value.equalsIgnoreCase("true")) {
                return true;
            }
            if (value.equalsIgnoreCase("false")) {
                return false;
            }
            throw new IllegalArgumentException(value);
        });
    }

    /** A TCP port; 0 means "pick a free one" where the component supports it. */
    public int port(String key, int defaultValue) {
        int port = integer(key, defaultValue);
        if (port < 0 || port > 65535) {
            throw invalid(key, "a port number between 0 and 65535");
        }
        return port;
    }

    /** A duration such as {@code 500ms}, {@code 10s}, {@code 5m}, {@code 2h}, {@code 7d} or ISO-8601 {@code PT10S}. */
    public Duration duration(String key, Duration defaultValue) {
        return parse(
                key, defaultValue, "a duration such as 500ms, 10s, 5m, 2h, 7d or PT10S", ConfigSource::parseDuration);
    }

    public URI uri(String key, URI defaultValue) {
        return parse(key, defaultValue, "a URI", value -> {
            try {
                return new URI(value);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException(e);
            }
        });
    }

    public Path path(String key, Path defaultValue) {
        return parse(key, defaultValue, "a file system path", Path::of);
    }

    /**
     * A value that only {@code parser} can read and that may be a secret, such as a {@code <client id>:<secret>}
     * credential: an {@link IllegalArgumentException} of the parser becomes the {@link ConfigException} with the
     * parser's message, which must name the key and never holds the value.
     */
    public <T> Optional<T> secret(String key, Function<String, T> parser) {
        requireNonNull(parser, "parser is null");
        return string(key).map(value -> {
            try {
                return parser.apply(value);
            } catch (IllegalArgumentException e) {
                throw new ConfigException(e.getMessage(), e);
            }
        });
    }

    /** The keys set in any layer with the given prefix, mapped to their values; the prefix is removed. */
    public Map<String, String> withPrefix(String prefix) {
        Map<String, String> result = new TreeMap<>();
        entries.forEach((key, entry) -> {
            if (key.startsWith(prefix)) {
                result.put(key.substring(prefix.length()), entry.value());
            }
        });
        return result;
    }

    public Set<String> keys() {
        return entries.keySet();
    }

    /**
     * Parses {@code 500ms}, {@code 10s}, {@code 5m}, {@code 2h}, {@code 7d} or ISO-8601 ({@code PT10S}).
     *
     * @throws IllegalArgumentException when the value is none of these
     */
    public static Duration parseDuration(String value) {
        Matcher matcher = DURATION.matcher(value.trim().toLowerCase(Locale.ROOT));
        if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            return switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                case "d" -> Duration.ofDays(amount);
                default -> throw new IllegalArgumentException(value);
            };
        }
        try {
            return Duration.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(value, e);
        }
    }

    private <T> T parse(String key, T defaultValue, String expected, ValueParser<T> parser) {
        Optional<Entry> entry =
                entry(key).filter(candidate -> !candidate.value().isEmpty());
        if (entry.isEmpty()) {
            return defaultValue;
        }
        try {
            return parser.parse(entry.get().value());
        } catch (RuntimeException e) {
            throw invalid(key, expected);
        }
    }

    private ConfigException invalid(String key, String expected) {
        Entry entry = entry(key).orElseThrow();
        return new ConfigException("Invalid configuration " + key + " = '" + entry.value() + "' from " + entry.origin()
                + ": expected " + expected);
    }

    @FunctionalInterface
    private interface ValueParser<T> {
        T parse(String value);
    }

    private record Entry(String value, String origin) {}
}
