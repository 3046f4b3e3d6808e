package io.fleetlake.stack.process;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The project checkout the embedded stack runs from. Components run from their modules' build output
 * ({@code <module>/target/<artifactId>-<version>.jar} plus {@code target/launch/classpath.txt}, written by
 * {@code mvn package}), so the launcher needs to know where the checkout is: the {@code fleet.home} system property,
 * the {@code FLEET_HOME} environment variable, or the nearest parent of the working directory holding the project's
 * root pom.
 */
public final class FleetHome {
    private static final String VERSION_RESOURCE = "/io/fleetlake/stack/version.properties";
    private static final String ROOT_POM_MARKER = "<artifactId>fleet-lakehouse-parent</artifactId>";

    private final Path root;
    private final String version;

    public FleetHome(Path root, String version) {
        this.root = requireNonNull(root, "root is null").toAbsolutePath().normalize();
        this.version = requireNonNull(version, "version is null");
    }

    /** Locates the checkout; see the class comment. */
    public static FleetHome locate() {
        String version = projectVersion();
        Optional<Path> configured = Optional.ofNullable(System.getProperty("fleet.home"))
                .or(() -> Optional.ofNullable(System.getenv("FLEET_HOME")))
                .map(Path::of);
        if (configured.isPresent()) {
            if (!isRoot(configured.get())) {
                throw new IllegalStateException(configured.get().toAbsolutePath()
                        + " (fleet.home / FLEET_HOME) is not the fleet-lakehouse checkout: its pom.xml is missing");
            }
            return new FleetHome(configured.get(), version);
        }
        for (Path candidate = Path.of("").toAbsolutePath(); candidate != null; candidate = candidate.getParent()) {
            if (isRoot(candidate)) {
                return new FleetHome(candidate, version);
            }
        }
        throw new IllegalStateException("Cannot find the fleet-lakehouse checkout from "
                + Path.of("").toAbsolutePath() + ": run from inside it or set FLEET_HOME");
    }

    /** The version of the project this launcher was built from. */
    public static String projectVersion() {
        Properties properties = new Properties();
        try (InputStream in = FleetHome.class.getResourceAsStream(VERSION_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(VERSION_RESOURCE + " is missing from the stack jar");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + VERSION_RESOURCE, e);
        }
        return properties.getProperty("version");
    }

    private static boolean isRoot(Path directory) {
        Path pom = directory.resolve("pom.xml");
        try {
            return Files.isRegularFile(pom) && Files.readString(pom).contains(ROOT_POM_MARKER);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + pom, e);
        }
    }

    public Path root() {
        return root;
    }

    public Path module(String moduleDirectory) {
        return root.resolve(moduleDirectory);
    }

    /**
     * The JVM options a module that runs as its own process asks for in {@code src/main/launch/jvm.options} (copied to
     * {@code target/launch/} by the build): one per line, {@code #} starts a comment. Empty when it asks for none.
     */
    public List<String> launchJvmOptions(String moduleDirectory) {
        Path file = module(moduleDirectory).resolve("target").resolve("launch").resolve("jvm.options");
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        try {
            return Files.readAllLines(file).stream()
                    .map(String::trim)
                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    /**
     * The runtime classpath of a module that runs as its own process: its jar followed by its dependencies.
     *
     * @throws IllegalStateException when the module has not been built, saying which command builds it
     */
    public List<Path> launchClasspath(String moduleDirectory, String artifactId) {
        Path target = module(moduleDirectory).resolve("target");
        Path jar = target.resolve(artifactId + "-" + version + ".jar");
        Path classpathFile = target.resolve("launch").resolve("classpath.txt");
        if (!Files.isRegularFile(jar) || !Files.isRegularFile(classpathFile)) {
            throw new IllegalStateException("Module " + moduleDirectory + " is not built (" + jar + " or "
                    + classpathFile + " is missing): run `mvn -DskipTests package` in " + root);
        }
        List<Path> classpath = new ArrayList<>();
        classpath.add(jar);
        try {
            String entries = Files.readString(classpathFile).trim();
            if (!entries.isEmpty()) {
                Arrays.stream(entries.split(java.io.File.pathSeparator))
                        .map(Path::of)
                        .forEach(classpath::add);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + classpathFile, e);
        }
        return List.copyOf(classpath);
    }
}
