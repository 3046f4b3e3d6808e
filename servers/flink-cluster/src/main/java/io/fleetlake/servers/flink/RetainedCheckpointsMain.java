package io.fleetlake.servers.flink;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.PluginUtils;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Prints the newest complete checkpoint a job left in the cluster's checkpoint directory, as a line {@value #PREFIX}
 * followed by its path and a line {@value #COMPLETED_AT_PREFIX} followed by when it completed (ISO-8601), or nothing
 * when it left none. The stack runs it when the JobManager no longer knows the job
 * (it was restarted; without high availability it forgets its jobs), to resume the job from exactly its newest
 * checkpoint: an older one would write again what the newest one already committed to Iceberg.
 *
 * <p>It reads the cluster's {@code config.yaml} and loads the file systems from the plugin folder of {@code
 * FLINK_PLUGINS_DIR}, as the JobManager does, so it reaches S3 with the same settings.
 */
@Command(
        name = "retained-checkpoints",
        mixinStandardHelpOptions = true,
        description = "Prints the newest complete checkpoint of a job in the Flink cluster's checkpoint directory.")
public final class RetainedCheckpointsMain implements Callable<Integer> {
    /** Starts the line that names the checkpoint, so that log lines on the same output are never mistaken for it. */
    public static final String PREFIX = "newest-retained-checkpoint: ";
    /** The restore guard compares it with the Iceberg commits made since. */
    public static final String COMPLETED_AT_PREFIX = "newest-retained-checkpoint-completed-at: ";

    @Option(names = "--config-dir", required = true, description = "The folder of the cluster's config.yaml.")
    private Path configDirectory;

    @Option(names = "--job-id", required = true, description = "The job whose checkpoints to look at.")
    private String jobId;

    @Override
    public Integer call() throws Exception {
        Configuration configuration = GlobalConfiguration.loadConfiguration(configDirectory.toString());
        FileSystem.initialize(configuration, PluginUtils.createPluginManagerFromRootFolder(configuration));
        Optional<String> checkpointDirectory = configuration.getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY);
        if (checkpointDirectory.isEmpty()) {
            System.err.println(CheckpointingOptions.CHECKPOINTS_DIRECTORY.key() + " is not set in " + configDirectory);
            return 2;
        }
        new RetainedCheckpoints(new org.apache.flink.core.fs.Path(checkpointDirectory.get()))
                .newest(jobId)
                .ifPresent(retained -> {
                    System.out.println(PREFIX + retained.path());
                    System.out.println(COMPLETED_AT_PREFIX + retained.completedAt());
                });
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new RetainedCheckpointsMain()).execute(args));
    }
}
