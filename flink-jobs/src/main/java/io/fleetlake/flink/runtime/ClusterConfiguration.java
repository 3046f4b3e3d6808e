package io.fleetlake.flink.runtime;

import io.fleetlake.flink.config.FleetPipelineConfig;
import io.fleetlake.flink.config.RestartConfig;
import io.fleetlake.flink.types.PipelineSerialization;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.SecurityOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.CheckpointingMode;

/**
 * The Flink configuration of the pipeline's local MiniCluster and job. In a Flink cluster the cluster's configuration
 * takes this place (see {@code FleetPipelineClusterMain}).
 */
public final class ClusterConfiguration {
    /**
     * The number of key groups of every keyed operator, and so the highest parallelism the job can be rescaled to from
     * a checkpoint or savepoint. It must never change: state is split into key groups when it is written, and a
     * snapshot restores only into the same number. 128 is the value Flink derived for the parallelism of every earlier
     * release (the greater of 128 and 1.5 times the parallelism), so their checkpoints still restore.
     */
    public static final int MAX_PARALLELISM = 128;

    private ClusterConfiguration() {}

    /**
     * Exactly-once checkpoints to the local checkpoint directory, retained on cancellation so that the next start can
     * resume; every endpoint bound to the configured host (Flink otherwise listens on all interfaces), the REST
     * endpoint with mutual TLS when the configuration names its stores.
     *
     * @param checkpointDirectory where the checkpoints go
     * @param restoreFrom the checkpoint or savepoint to resume from (a path or URI), or empty to start from the Kafka
     *     committed offsets
     */
    public static Configuration create(
            FleetPipelineConfig config, Path checkpointDirectory, Optional<String> restoreFrom) {
        Configuration configuration = new Configuration();
        configuration.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        configuration.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                checkpointDirectory.toUri().toString());
        configuration.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        restoreFrom.ifPresent(snapshot -> {
            configuration.set(StateRecoveryOptions.SAVEPOINT_PATH, snapshot);
            // State of operators that no longer exist (RETIRED_UIDS) is dropped instead of refusing the checkpoint,
            // which would also lose the source offsets and the Iceberg commits pending in it. The job's uids are pinned
            // by a test, so no other state can go unclaimed.
            configuration.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, true);
        });

        configuration.set(RestOptions.BIND_ADDRESS, config.restHost());
        configuration.set(RestOptions.ADDRESS, config.restHost());
        configuration.set(RestOptions.PORT, config.restPort());
        configuration.set(RestOptions.BIND_PORT, Integer.toString(config.restPort()));
        configuration.set(JobManagerOptions.BIND_HOST, config.restHost());
        configuration.set(JobManagerOptions.ADDRESS, config.restHost());
        configuration.set(TaskManagerOptions.BIND_HOST, config.restHost());
        configuration.set(TaskManagerOptions.HOST, config.restHost());
        // Mutual TLS: on this machine any local user could otherwise read the job or stop it through the REST port.
        config.restTls().ifPresent(stores -> configuration.addAll(Configuration.fromMap(stores.endpointOptions())));
        // Token providers (Hadoop, Kerberos) are not used and fail on newer JVMs.
        configuration.set(SecurityOptions.DELEGATION_TOKENS_ENABLED, false);

        configuration.set(TaskManagerOptions.NUM_TASK_SLOTS, config.parallelism());
        configuration.set(CoreOptions.DEFAULT_PARALLELISM, config.parallelism());
        return jobSettings(configuration, config);
    }

    /**
     * What the job decides in every deployment, the MiniCluster's and a Flink cluster's alike: exactly-once checkpoints
     * every {@code pipeline.checkpoint-interval}, the restart strategy ({@link RestartConfig}), no job-wide buffer timeout, how
     * records are serialised (no Kryo, object reuse: {@link PipelineSerialization}), and what keeps its state
     * restorable across releases and rescales: no operator without an explicit uid ({@code pipeline.auto-generate-uids:
     * false}, so a job graph with an operator that lost its uid is refused when it is built instead of restoring
     * without that operator's state) and a fixed maximum parallelism of {@value #MAX_PARALLELISM}.
     */
    public static Configuration jobSettings(Configuration configuration, FleetPipelineConfig config) {
        configuration.set(PipelineOptions.AUTO_GENERATE_UIDS, false);
        configuration.set(PipelineOptions.MAX_PARALLELISM, MAX_PARALLELISM);
        configuration.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, config.checkpointInterval());
        configuration.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
        // Only the exchanges on the way to Redis flush on a timer (FleetPipelineJob.Builder#bufferTimeout); the others
        // are sent when a buffer is full or a checkpoint barrier flushes them, so no thread wakes up for them at idle.
        configuration.set(ExecutionOptions.BUFFER_TIMEOUT_ENABLED, false);
        config.restart().applyTo(configuration);
        return PipelineSerialization.configure(configuration);
    }
}
