package io.fleetlake.trino;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds a JDK that can run Trino 476. The launcher itself runs on Java 17, so Trino gets its own JDK, looked up in this
 * order: {@code trino.java-home}, the {@code TRINO_JAVA_HOME} environment variable, {@code JAVA_HOME} when it is new
 * enough, then the usual install folders. A JDK is identified by its {@code release} file ({@code JAVA_VERSION}) and an
 * executable {@code bin/java}.
 *
 * <p>An explicitly chosen JDK ({@code trino.java-home} or {@code TRINO_JAVA_HOME}) that is not suitable is an error
 * rather than a reason to keep searching, so a typo does not silently start Trino on another JDK. Among the JDKs found
 * in the usual folders the oldest suitable feature release wins, because Trino 476 is tested on Java 24 only.
 */
public final class JdkLocator {
    /**
     * Trino 476's own start-up check asks for Java 22, but its classes are compiled for Java 24 (class file version
     * 68) and fail to load on 22 or 23; its documentation requires Java 24.
     */
    public static final int REQUIRED_FEATURE_VERSION = 24;

    public static final String TRINO_JAVA_HOME = "TRINO_JAVA_HOME";
    public static final String JAVA_HOME = "JAVA_HOME";

    private static final Pattern LEADING_NUMBER = Pattern.compile("(\\d+)");

    private final Optional<Path> configuredJavaHome;
    private final Map<String, String> environment;
    private final List<SearchLocation> searchLocations;

    JdkLocator(Optional<Path> configuredJavaHome, Map<String, String> environment, List<SearchLocation> locations) {
        this.configuredJavaHome = requireNonNull(configuredJavaHome, "configuredJavaHome is null");
        this.environment = Map.copyOf(requireNonNull(environment, "environment is null"));
        this.searchLocations = List.copyOf(requireNonNull(locations, "locations is null"));
    }

    /** Searches this machine's environment and usual folders, after the configured JDK if there is one. */
    public static JdkLocator forThisMachine(Optional<Path> configuredJavaHome) {
        return new JdkLocator(
                configuredJavaHome, System.getenv(), SearchLocation.usual(Path.of(System.getProperty("user.home"))));
    }

    /** The JDK to run Trino with; throws {@link TrinoServerException} saying where it looked when there is none. */
    public Jdk locate() {
        if (configuredJavaHome.isPresent()) {
            return requireSuitable(configuredJavaHome.get(), TrinoConfig.JAVA_HOME);
        }
        Optional<String> trinoJavaHome = environmentValue(TRINO_JAVA_HOME);
        if (trinoJavaHome.isPresent()) {
            return requireSuitable(Path.of(trinoJavaHome.get()), "environment variable " + TRINO_JAVA_HOME);
        }

        List<String> looked = new ArrayList<>();
        looked.add(TrinoConfig.JAVA_HOME + " (not set)");
        looked.add(TRINO_JAVA_HOME + " (not set)");
        Optional<String> javaHome = environmentValue(JAVA_HOME);
        if (javaHome.isPresent()) {
            Candidate candidate = Candidate.inspect(Path.of(javaHome.get()));
            if (candidate.isSuitable()) {
                return candidate.jdk().orElseThrow();
            }
            looked.add(JAVA_HOME + "=" + javaHome.get() + " (" + candidate.describe() + ")");
        } else {
            looked.add(JAVA_HOME + " (not set)");
        }

        List<Jdk> suitable = new ArrayList<>();
        for (SearchLocation location : searchLocations) {
            List<Candidate> candidates =
                    location.candidates().stream().map(Candidate::inspect).toList();
            if (candidates.isEmpty()) {
                looked.add(location.describe() + " (nothing there)");
            }
            for (Candidate candidate : candidates) {
                looked.add(candidate.home() + " (" + candidate.describe() + ")");
                if (candidate.isSuitable()) {
                    suitable.add(candidate.jdk().orElseThrow());
                }
            }
        }
        return suitable.stream()
                .min(Comparator.comparingInt(Jdk::featureVersion)
                        // Within a feature release, the newest update.
                        .thenComparing((first, second) -> compareVersions(second.version(), first.version()))
                        .thenComparing(Jdk::home))
                .orElseThrow(() -> new TrinoServerException("Trino 476 needs Java " + REQUIRED_FEATURE_VERSION
                        + " or newer, and no such JDK was found. Looked at: " + String.join("; ", looked)
                        + ". Install a JDK " + REQUIRED_FEATURE_VERSION + " or newer (for example Eclipse Temurin "
                        + REQUIRED_FEATURE_VERSION + ") and set the environment variable " + TRINO_JAVA_HOME
                        + " (or " + TrinoConfig.JAVA_HOME + ") to its folder."));
    }

    private Optional<String> environmentValue(String name) {
        return Optional.ofNullable(environment.get(name)).map(String::trim).filter(value -> !value.isEmpty());
    }

    private static Jdk requireSuitable(Path home, String origin) {
        Candidate candidate = Candidate.inspect(home);
        if (!candidate.isSuitable()) {
            throw new TrinoServerException(origin + " points to " + home + ", which is " + candidate.describe()
                    + ", but Trino 476 needs Java " + REQUIRED_FEATURE_VERSION + " or newer. Point " + origin
                    + " at a JDK " + REQUIRED_FEATURE_VERSION + " or newer, or unset it to search "
                    + TRINO_JAVA_HOME + ", " + JAVA_HOME + " and the usual folders.");
        }
        return candidate.jdk().orElseThrow();
    }

    /** The feature release of a {@code JAVA_VERSION} value: {@code 25.0.3} is 25, {@code 1.8.0_292} is 8. */
    static Optional<Integer> featureVersion(String javaVersion) {
        String version = javaVersion.startsWith("1.") ? javaVersion.substring(2) : javaVersion;
        Matcher matcher = LEADING_NUMBER.matcher(version);
        if (!matcher.lookingAt()) {
            return Optional.empty();
        }
        return Optional.of(Integer.parseInt(matcher.group(1)));
    }

    /** Compares versions such as {@code 24.0.2} and {@code 24.0.10} number by number. */
    static int compareVersions(String first, String second) {
        String[] firstNumbers = first.split("[^0-9]+");
        String[] secondNumbers = second.split("[^0-9]+");
        for (int index = 0; index < Math.max(firstNumbers.length, secondNumbers.length); index++) {
            long firstNumber = number(firstNumbers, index);
            long secondNumber = number(secondNumbers, index);
            if (firstNumber != secondNumber) {
                return Long.compare(firstNumber, secondNumber);
            }
        }
        return 0;
    }

    private static long number(String[] numbers, int index) {
        if (index >= numbers.length || numbers[index].isEmpty()) {
            return 0;
        }
        return Long.parseLong(numbers[index]);
    }

    /**
     * A JDK on disk.
     *
     * @param home its folder (the one holding {@code release} and {@code bin/java})
     * @param version the {@code JAVA_VERSION} of its {@code release} file, such as {@code 25.0.3}
     * @param featureVersion the feature release, such as 25
     */
    public record Jdk(Path home, String version, int featureVersion) {
        public Jdk {
            requireNonNull(home, "home is null");
            requireNonNull(version, "version is null");
        }

        public Path javaExecutable() {
            return home.resolve("bin").resolve("java");
        }
    }

    /**
     * Folders whose children may be JDKs: the children of {@code parent} whose names start with {@code namePrefix},
     * each resolved against {@code suffix} (macOS keeps the JDK in {@code Contents/Home}).
     */
    record SearchLocation(Path parent, String namePrefix, String suffix) {
        SearchLocation {
            requireNonNull(parent, "parent is null");
            requireNonNull(namePrefix, "namePrefix is null");
            requireNonNull(suffix, "suffix is null");
        }

        static List<SearchLocation> usual(Path userHome) {
            return List.of(
                    new SearchLocation(Path.of("/usr/lib/jvm"), "", ""),
                    new SearchLocation(Path.of("/opt/java"), "", ""),
                    new SearchLocation(Path.of("/opt"), "jdk", ""),
                    new SearchLocation(userHome.resolve(".sdkman/candidates/java"), "", ""),
                    new SearchLocation(Path.of("/Library/Java/JavaVirtualMachines"), "", "Contents/Home"));
        }

        String describe() {
            return parent.resolve(namePrefix + "*" + (suffix.isEmpty() ? "" : "/" + suffix))
                    .toString();
        }

        /** The candidate folders, in name order, each real folder once (package managers add symbolic links). */
        List<Path> candidates() {
            if (!Files.isDirectory(parent)) {
                return List.of();
            }
            Set<Path> realPaths = new LinkedHashSet<>();
            List<Path> candidates = new ArrayList<>();
            try (Stream<Path> children = Files.list(parent)) {
                for (Path child : children.sorted().toList()) {
                    Path candidate = suffix.isEmpty() ? child : child.resolve(suffix);
                    if (child.getFileName().toString().startsWith(namePrefix)
                            && Files.isDirectory(candidate)
                            && realPaths.add(candidate.toRealPath())) {
                        candidates.add(candidate);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot list " + parent + " while looking for a JDK", e);
            }
            return candidates;
        }
    }

    private record Candidate(Path home, Optional<Jdk> jdk, String problem) {
        static Candidate inspect(Path home) {
            Path release = home.resolve("release");
            if (!Files.isRegularFile(release)) {
                return new Candidate(home, Optional.empty(), "not a JDK: no release file");
            }
            if (!Files.isExecutable(home.resolve("bin").resolve("java"))) {
                return new Candidate(home, Optional.empty(), "not a JDK: no executable bin/java");
            }
            Properties properties = new Properties();
            try (Reader reader = Files.newBufferedReader(release)) {
                properties.load(reader);
            } catch (IOException | IllegalArgumentException e) {
                return new Candidate(home, Optional.empty(), "not a JDK: unreadable release file (" + e + ")");
            }
            String version = unquote(properties.getProperty("JAVA_VERSION", ""));
            Optional<Integer> feature = featureVersion(version);
            if (feature.isEmpty()) {
                return new Candidate(home, Optional.empty(), "not a JDK: release file has no JAVA_VERSION");
            }
            return new Candidate(home, Optional.of(new Jdk(home, version, feature.get())), "");
        }

        boolean isSuitable() {
            return jdk.filter(found -> found.featureVersion() >= REQUIRED_FEATURE_VERSION)
                    .isPresent();
        }

        String describe() {
            return jdk.map(found -> "Java " + found.version()).orElse(problem);
        }

        private static String unquote(String value) {
            String trimmed = value.trim();
            if (trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\"")) {
                return trimmed.substring(1, trimmed.length() - 1);
            }
            return trimmed;
        }
    }
}
