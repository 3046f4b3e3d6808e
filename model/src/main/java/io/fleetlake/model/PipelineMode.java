package io.fleetlake.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Where the pipeline job runs, chosen with {@value #KEY} ({@code fleet up --pipeline-mode}). Each mode keeps its own
 * checkpoints; the restore guard ({@code io.fleetlake.model.restore.RestoreGuard}) decides what a start in either mode
 * may restore, and every Iceberg commit of the pipeline names the mode that made it ({@code fleet.pipeline-mode} in the
 * snapshot summary).
 */
public enum PipelineMode {
    /** On a Flink MiniCluster inside one JVM of its own ({@code FleetPipelineMain}), heap state; the default. */
    EMBEDDED,
    /**
     * On a Flink cluster ({@code FleetPipelineClusterMain}): in the stack a standalone session cluster, a JobManager and
     * TaskManagers as JVMs of their own, the job jar submitted through the REST API, RocksDB state.
     */
    CLUSTER;

    public static final String KEY = "stack.pipeline-mode";

    /**
     * The mode of that name, in any case and with spaces around it.
     *
     * @throws IllegalArgumentException naming {@value #KEY}, the value and the choices
     */
    public static PipelineMode named(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid configuration " + KEY + " = " + value + ": expected one of "
                    + Arrays.stream(values()).map(PipelineMode::toString).collect(Collectors.joining(", ")));
        }
    }

    /** The name the configuration and the command line use: {@code embedded}, {@code cluster}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
