package io.fleetlake.stack.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The memory of one TaskManager, every part set explicitly, in MiB. Flink's shell scripts derive these parts from a
 * process size (BashJavaUtils) and pass the JVM limits that match them; started without those scripts, a TaskManager
 * refuses to start unless every part is configured, and its JVM limits must be the sums Flink expects: heap =
 * framework heap + task heap, direct memory = framework off-heap + task off-heap + network, metaspace.
 *
 * @param taskHeapMb heap for the operators' objects (key {@code cluster.taskmanager-heap-mb})
 * @param managedMb managed memory, RocksDB's block cache and write buffers (key {@code
 *     cluster.taskmanager-managed-mb})
 */
public record TaskManagerMemory(int taskHeapMb, int managedMb) {
    static final int FRAMEWORK_HEAP_MB = 128;
    static final int FRAMEWORK_OFF_HEAP_MB = 128;
    static final int TASK_OFF_HEAP_MB = 32;
    static final int NETWORK_MB = 64;
    // Every job a TaskManager runs loads the job jar's classes (Iceberg, the AWS SDK, Avro) again, and not all of them
    // are unloaded when the job ends: at 256 MiB a TaskManager ran out of metaspace on its fourth job (a rescale to 4
    // and back and a resubmission after a lost JobManager). 512 MiB holds several generations; past that the
    // TaskManager exits on the OutOfMemoryError (FlinkConfiguration) and the supervisor starts a fresh one.
    static final int METASPACE_MB = 512;
    static final int OVERHEAD_MB = 192;

    public TaskManagerMemory {
        if (taskHeapMb < 128) {
            throw new IllegalArgumentException("The task heap must be at least 128 MiB, got " + taskHeapMb);
        }
        if (managedMb < 16) {
            throw new IllegalArgumentException("Managed memory must be at least 16 MiB, got " + managedMb);
        }
    }

    /** The JVM's heap: framework and task heap. */
    public int heapMb() {
        return FRAMEWORK_HEAP_MB + taskHeapMb;
    }

    /** The JVM's direct memory limit: framework and task off-heap, network buffers. */
    public int directMemoryMb() {
        return FRAMEWORK_OFF_HEAP_MB + TASK_OFF_HEAP_MB + NETWORK_MB;
    }

    /** What the whole process may use, as Flink counts it (it derives the same from the parts). */
    public int processMb() {
        return heapMb() + directMemoryMb() + managedMb + METASPACE_MB + OVERHEAD_MB;
    }

    /** The Flink settings, for the TaskManager's configuration. */
    public Map<String, String> flinkOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("taskmanager.memory.framework.heap.size", mb(FRAMEWORK_HEAP_MB));
        options.put("taskmanager.memory.task.heap.size", mb(taskHeapMb));
        options.put("taskmanager.memory.managed.size", mb(managedMb));
        options.put("taskmanager.memory.framework.off-heap.size", mb(FRAMEWORK_OFF_HEAP_MB));
        options.put("taskmanager.memory.task.off-heap.size", mb(TASK_OFF_HEAP_MB));
        options.put("taskmanager.memory.network.min", mb(NETWORK_MB));
        options.put("taskmanager.memory.network.max", mb(NETWORK_MB));
        options.put("taskmanager.memory.jvm-metaspace.size", mb(METASPACE_MB));
        options.put("taskmanager.memory.jvm-overhead.min", mb(OVERHEAD_MB));
        options.put("taskmanager.memory.jvm-overhead.max", mb(OVERHEAD_MB));
        return options;
    }

    /** The JVM limits that match {@link #flinkOptions()}. */
    public List<String> jvmOptions() {
        return List.of(
                "-Xmx" + heapMb() + "m",
                "-Xms" + heapMb() + "m",
                "-XX:MaxDirectMemorySize=" + directMemoryMb() + "m",
                "-XX:MaxMetaspaceSize=" + METASPACE_MB + "m");
    }

    private static String mb(int megabytes) {
        return megabytes + "m";
    }
}
