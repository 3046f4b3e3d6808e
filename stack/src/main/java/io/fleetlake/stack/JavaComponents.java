package io.fleetlake.stack;

import static java.util.Objects.requireNonNull;

import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.component.ProcessComponent;
import io.fleetlake.stack.process.ComponentConfigurationFile;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.process.JavaCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Builds the components that run one of the project's modules in its own JVM: a configuration file written at every
 * start from the stack's keys plus the user's keys of the same prefixes, and the module's launch classpath.
 */
final class JavaComponents {
    private final StackSettings settings;
    private final FleetHome home;
    /** The configuration of every component built so far, by name. */
    private final Map<String, Map<String, String>> configurations = new ConcurrentHashMap<>();

    JavaComponents(StackSettings settings, FleetHome home) {
        this.settings = requireNonNull(settings, "settings is null");
        this.home = requireNonNull(home, "home is null");
    }

    Component component(
            String name,
            Set<String> dependencies,
            Module module,
            List<String> jvmOptions,
            Map<String, String> stackKeys,
            BooleanSupplier healthProbe,
            String endpoint,
            int... ports) {
        Path configFile = configurationFile(name);
        Map<String, String> configuration = configuration(stackKeys, module.extraPrefixes());
        configurations.put(name, configuration);
        return ProcessComponent.builder(name)
                .dependsOn(dependencies)
                .command(() -> {
                    writeConfiguration(configFile, configuration);
                    List<String> options = new ArrayList<>(jvmOptions);
                    options.addAll(home.launchJvmOptions(module.directory()));
                    options.addAll(settings.jvmOptions(name));
                    return new JavaCommand(
                                    JavaCommand.currentJavaHome(),
                                    options,
                                    home.launchClasspath(module.directory(), module.artifactId()),
                                    module.mainClass(),
                                    List.of("--config", configFile.toString()))
                            .toCommandLine();
                })
                .workingDirectory(settings.componentDirectory(name))
                .logFile(settings.logFile(name))
                .healthProbe(healthProbe)
                .listensOn(ports)
                .endpoint(endpoint)
                .build();
    }

    /**
     * Writes the configuration file {@link #component} made for {@code name} (its stack keys and the user's keys of
     * the same prefixes) without some keys, for the same component run another way (the pipeline job on a Flink
     * cluster reads it there), and returns its path.
     *
     * @param withoutKeys keys left out, even when the user set them
     */
    Path writeConfigurationOf(String name, Set<String> withoutKeys) {
        Map<String, String> configuration = configurations.get(name);
        if (configuration == null) {
            throw new IllegalStateException("No component " + name + " was built, so its configuration is unknown");
        }
        Map<String, String> written = new TreeMap<>(configuration);
        written.keySet().removeAll(withoutKeys);
        Path file = configurationFile(name);
        writeConfiguration(file, written);
        return file;
    }

    /** The stack's keys of a component plus every key the user set with the same prefixes or the extra ones. */
    private Map<String, String> configuration(Map<String, String> stackKeys, List<String> extraPrefixes) {
        Map<String, String> configuration = new TreeMap<>(stackKeys);
        Stream.concat(
                        stackKeys.keySet().stream().map(key -> key.substring(0, key.indexOf('.'))),
                        extraPrefixes.stream())
                .distinct()
                .forEach(prefix -> configuration.putAll(userKeys(prefix)));
        return configuration;
    }

    private Path configurationFile(String name) {
        return settings.dataDirectory().resolve("conf").resolve(name + ".properties");
    }

    /** Keys of one component prefix set in the stack's configuration, so users can tune any component. */
    Map<String, String> userKeys(String prefix) {
        Map<String, String> keys = new LinkedHashMap<>();
        settings.configuration().withPrefix(prefix + ".").forEach((key, value) -> keys.put(prefix + "." + key, value));
        return keys;
    }

    String port(StackPort port) {
        return Integer.toString(settings.port(port));
    }

    String directory(String component) {
        return settings.componentDirectory(component).toString();
    }

    private static void writeConfiguration(Path file, Map<String, String> configuration) {
        ComponentConfigurationFile.write(
                file,
                List.of("Written by the embedded stack at every start; set keys in the stack's configuration."),
                configuration);
    }

    /**
     * @param extraPrefixes configuration prefixes the component reads besides those of its stack keys, for example the
     *     pipeline's {@code validation.*} rules
     */
    record Module(String directory, String artifactId, String mainClass, List<String> extraPrefixes) {
        Module {
            requireNonNull(directory, "directory is null");
            requireNonNull(artifactId, "artifactId is null");
            requireNonNull(mainClass, "mainClass is null");
            extraPrefixes = List.copyOf(requireNonNull(extraPrefixes, "extraPrefixes is null"));
        }

        Module(String directory, String artifactId, String mainClass) {
            this(directory, artifactId, mainClass, List.of());
        }
    }
}
