package io.fleetlake.stack.cluster;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Where the stack runs the pipeline job: key {@value #KEY}. */
public enum PipelineMode {
    /** On a Flink MiniCluster inside one JVM of its own ({@code FleetPipelineMain}); the default. */
    EMBEDDED,
    /**
     * On a standalone Flink session cluster: a JobManager and {@code cluster.taskmanagers} TaskManagers, each a JVM of
     * its own, with the job jar submitted through the JobManager's REST API.
     */
    CLUSTER;

    public static final String KEY = "stack.pipeline-mode";

    public static PipelineMode from(ConfigSource configuration) {
        return named(configuration.string(KEY, "embedded"));
    }

    /** The mode of that name, in any case. */
    public static PipelineMode named(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("Invalid configuration " + KEY + " = " + value + ": expected one of "
                    + Arrays.stream(values()).map(PipelineMode::toString).collect(Collectors.joining(", ")));
        }
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
