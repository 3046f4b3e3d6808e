package io.fleetlake.stack.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The memory of the JobManager, in MiB, every part set as Flink's scripts would and the JVM limits to match. The heap
 * also runs the job's {@code main} when the job is submitted through the REST API (it loads the Iceberg tables).
 *
 * @param heapMb the JobManager's heap (key {@code cluster.jobmanager-heap-mb})
 */
public record JobManagerMemory(int heapMb) {
    static final int OFF_HEAP_MB = 128;
    static final int METASPACE_MB = 256;
    static final int OVERHEAD_MB = 192;

    public JobManagerMemory {
        if (heapMb < 128) {
            throw new IllegalArgumentException("The JobManager heap must be at least 128 MiB, got " + heapMb);
        }
    }

    public int processMb() {
        return heapMb + OFF_HEAP_MB + METASPACE_MB + OVERHEAD_MB;
    }

    public Map<String, String> flinkOptions() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("jobmanager.memory.heap.size", heapMb + "m");
        options.put("jobmanager.memory.off-heap.size", OFF_HEAP_MB + "m");
        options.put("jobmanager.memory.jvm-metaspace.size", METASPACE_MB + "m");
        options.put("jobmanager.memory.jvm-overhead.min", OVERHEAD_MB + "m");
        options.put("jobmanager.memory.jvm-overhead.max", OVERHEAD_MB + "m");
        return options;
    }

    public List<String> jvmOptions() {
        return List.of("-Xmx" + heapMb + "m", "-Xms" + heapMb + "m", "-XX:MaxMetaspaceSize=" + METASPACE_MB + "m");
    }
}
