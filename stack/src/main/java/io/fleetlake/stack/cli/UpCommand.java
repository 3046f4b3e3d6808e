package io.fleetlake.stack.cli;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.stack.EmbeddedStack;
import io.fleetlake.stack.FleetStack;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.process.FleetHome;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Starts the stack and keeps it running until Ctrl-C. */
@Command(
        name = "up",
        mixinStandardHelpOptions = true,
        description = "Start every component and keep them running until Ctrl-C; publish your own positions over MQTT.")
public final class UpCommand implements Callable<Integer> {
    @Mixin
    private StackOptions options;

    @Option(
            names = "--pipeline-mode",
            paramLabel = "MODE",
            description = "Where the pipeline job runs: embedded (a Flink MiniCluster in one JVM, the default) or"
                    + " cluster (a Flink session cluster: a JobManager and TaskManagers as JVMs of their own, the job"
                    + " jar submitted through its REST API, RocksDB state and checkpoints on S3; see fleet cluster"
                    + " --help). Same as --set " + PipelineMode.KEY + "=MODE.")
    private String pipelineMode;

    @Override
    public Integer call() throws InterruptedException {
        FleetHome home = options.home();
        ConfigSource configuration = options.configuration();
        if (pipelineMode != null) {
            configuration = configuration.withOverrides(
                    Map.of(
                            PipelineMode.KEY,
                            StackSettings.pipelineMode(pipelineMode).toString()),
                    "--pipeline-mode");
        }
        StackSettings settings = options.settings(configuration, home);
        EmbeddedStack stack = FleetStack.create(settings, home);
        StackRunner.startWithShutdownHook(stack, settings);
        StackRunner.printEndpoints(stack, settings);
        System.out.println("The stack is running. Press Ctrl-C to stop it.");
        new CountDownLatch(1).await();
        return 0;
    }
}
