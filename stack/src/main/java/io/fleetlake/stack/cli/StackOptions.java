package io.fleetlake.stack.cli;

import io.fleetlake.common.config.ConfigOptions;
import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.process.FleetHome;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options every command that runs the stack accepts. */
public final class StackOptions {
    @Mixin
    private ConfigOptions config;

    @Option(
            names = "--data-dir",
            paramLabel = "DIR",
            description =
                    "Where the stack keeps its data (default: .fleet-data in the checkout; kept across restarts).")
    private Path dataDirectory;

    public FleetHome home() {
        return FleetHome.locate();
    }

    public ConfigSource configuration() {
        ConfigSource source = config.load();
        if (dataDirectory != null) {
            source = source.withOverrides(Map.of(StackSettings.DATA_DIRECTORY, dataDirectory.toString()), "--data-dir");
        }
        return source;
    }

    public StackSettings settings(ConfigSource configuration, FleetHome home) {
        return StackSettings.from(configuration, home.root().resolve(".fleet-data"));
    }
}
