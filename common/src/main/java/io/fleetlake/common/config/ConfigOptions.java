package io.fleetlake.common.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The configuration options every component's command line accepts: a properties file and single overrides. Mix into
 * a picocli command with {@code @Mixin ConfigOptions config;} and call {@link #load()}.
 */
public final class ConfigOptions {
    @Option(
            names = {"-c", "--config"},
            paramLabel = "FILE",
            description = "Properties file with configuration (keys component.kebab-case).")
    private Path file;

    @Option(
            names = {"-s", "--set"},
            paramLabel = "KEY=VALUE",
            description = "Override one configuration key; wins over the file and FLEET_* environment variables.")
    private Map<String, String> overrides = new LinkedHashMap<>();

    /** The file, then {@code FLEET_*} environment variables, then {@code --set} overrides. */
    public ConfigSource load() {
        return ConfigSource.load(Optional.ofNullable(file)).withOverrides(overrides, "command line --set");
    }
}
