package io.fleetlake.stack.cluster;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Settings of the stack's Flink session cluster (keys {@code cluster.*}), used when {@value io.fleetlake.model.PipelineMode#KEY} is
 * {@code cluster}. Every default is pinned by {@code FlinkClusterSettingsTest}.
 *
 * @param taskManagers TaskManager processes ({@value #TASK_MANAGERS})
 * @param slotsPerTaskManager task slots of each ({@value #SLOTS_PER_TASK_MANAGER}); the job's parallelism can grow to
 *     the total
 * @param taskManagerMemory the memory of each TaskManager ({@value #TASK_MANAGER_HEAP_MB}, {@value
 *     #TASK_MANAGER_MANAGED_MB})
 * @param jobManagerMemory the JobManager's memory ({@value #JOB_MANAGER_HEAP_MB})
 * @param checkpointDirectory where checkpoints go ({@value #CHECKPOINT_DIR}), retained when the job is cancelled or fails
 * @param savepointDirectory where savepoints go ({@value #SAVEPOINT_DIR})
 * @param stopTimeout how long stopping the job with a savepoint may take before it is cancelled instead ({@value
 *     #STOP_TIMEOUT})
 * @param flinkOptions any other Flink setting, from keys {@value #FLINK_PREFIX}{@code <flink key>}; they win over the
 *     stack's own
 */
public record FlinkClusterSettings(
        int taskManagers,
        int slotsPerTaskManager,
        TaskManagerMemory taskManagerMemory,
        JobManagerMemory jobManagerMemory,
        String checkpointDirectory,
        String savepointDirectory,
        Duration stopTimeout,
        Map<String, String> flinkOptions) {
    public static final String TASK_MANAGERS = "cluster.taskmanagers";
    public static final String SLOTS_PER_TASK_MANAGER = "cluster.slots-per-taskmanager";
    public static final String TASK_MANAGER_HEAP_MB = "cluster.taskmanager-heap-mb";
    public static final String TASK_MANAGER_MANAGED_MB = "cluster.taskmanager-managed-mb";
    public static final String JOB_MANAGER_HEAP_MB = "cluster.jobmanager-heap-mb";
    public static final String CHECKPOINT_DIR = "cluster.checkpoint-dir";
    public static final String SAVEPOINT_DIR = "cluster.savepoint-dir";
    public static final String STOP_TIMEOUT = "cluster.stop-timeout";
    public static final String FLINK_PREFIX = "cluster.flink.";

    /**
     * Flink keys that name a snapshot to restore. A restore path is an argument of one submission (the REST API's
     * {@code savepointPath}); left in the cluster's configuration it would be restored again by every later submission,
     * going back in time past everything committed since.
     */
    static final Set<String> RESTORE_KEYS = Set.of("execution.state-recovery.path", "execution.savepoint.path");

    /** The bucket of the default checkpoint and savepoint directories; the embedded S3 server creates it. */
    public static final String BUCKET = "flink";

    public static final int DEFAULT_TASK_MANAGERS = 2;
    public static final int DEFAULT_SLOTS_PER_TASK_MANAGER = 2;
    public static final int DEFAULT_TASK_MANAGER_HEAP_MB = 512;
    public static final int DEFAULT_TASK_MANAGER_MANAGED_MB = 128;
    public static final int DEFAULT_JOB_MANAGER_HEAP_MB = 512;
    public static final String DEFAULT_CHECKPOINT_DIR = "s3://" + BUCKET + "/checkpoints";
    public static final String DEFAULT_SAVEPOINT_DIR = "s3://" + BUCKET + "/savepoints";
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofMinutes(2);

    public FlinkClusterSettings {
        requireNonNull(taskManagerMemory, "taskManagerMemory is null");
        requireNonNull(jobManagerMemory, "jobManagerMemory is null");
        requireNonNull(checkpointDirectory, "checkpointDirectory is null");
        requireNonNull(savepointDirectory, "savepointDirectory is null");
        requireNonNull(stopTimeout, "stopTimeout is null");
        flinkOptions = Map.copyOf(requireNonNull(flinkOptions, "flinkOptions is null"));
        if (taskManagers < 1 || taskManagers > 16) {
            throw new ConfigException(
                    "Invalid configuration " + TASK_MANAGERS + " = " + taskManagers + ": expected 1 to 16");
        }
        if (slotsPerTaskManager < 1 || slotsPerTaskManager > 32) {
            throw new ConfigException("Invalid configuration " + SLOTS_PER_TASK_MANAGER + " = " + slotsPerTaskManager
                    + ": expected 1 to 32");
        }
        for (String key : flinkOptions.keySet()) {
            if (RESTORE_KEYS.contains(key)) {
                throw new ConfigException("Invalid configuration " + FLINK_PREFIX + key + ": a snapshot to restore is"
                        + " never part of the cluster's configuration (every later submission would restore it"
                        + " again); the stack restores the newest snapshot by itself, and fleet cluster rescale"
                        + " restores the savepoint it takes");
            }
        }
        if (stopTimeout.isNegative() || stopTimeout.isZero()) {
            throw new ConfigException(
                    "Invalid configuration " + STOP_TIMEOUT + " = " + stopTimeout + ": expected a positive duration");
        }
    }

    public static FlinkClusterSettings from(ConfigSource configuration) {
        return new FlinkClusterSettings(
                configuration.integer(TASK_MANAGERS, DEFAULT_TASK_MANAGERS),
                configuration.integer(SLOTS_PER_TASK_MANAGER, DEFAULT_SLOTS_PER_TASK_MANAGER),
                memory(() -> new TaskManagerMemory(
                        configuration.integer(TASK_MANAGER_HEAP_MB, DEFAULT_TASK_MANAGER_HEAP_MB),
                        configuration.integer(TASK_MANAGER_MANAGED_MB, DEFAULT_TASK_MANAGER_MANAGED_MB))),
                memory(() ->
                        new JobManagerMemory(configuration.integer(JOB_MANAGER_HEAP_MB, DEFAULT_JOB_MANAGER_HEAP_MB))),
                configuration.string(CHECKPOINT_DIR, DEFAULT_CHECKPOINT_DIR),
                configuration.string(SAVEPOINT_DIR, DEFAULT_SAVEPOINT_DIR),
                configuration.duration(STOP_TIMEOUT, DEFAULT_STOP_TIMEOUT),
                new TreeMap<>(configuration.withPrefix(FLINK_PREFIX)));
    }

    /** Slots of all TaskManagers together: the highest parallelism the job can run at. */
    public int totalSlots() {
        return taskManagers * slotsPerTaskManager;
    }

    /** The component name of TaskManager {@code number}, counted from 1. */
    public static String taskManagerName(int number) {
        return "flink-taskmanager-" + number;
    }

    private static <T> T memory(Supplier<T> memory) {
        try {
            return memory.get();
        } catch (IllegalArgumentException e) {
            throw new ConfigException("Invalid Flink cluster memory: " + e.getMessage() + " (" + TASK_MANAGER_HEAP_MB
                    + ", " + TASK_MANAGER_MANAGED_MB + ", " + JOB_MANAGER_HEAP_MB + ", in MiB)");
        }
    }
}
