package io.fleetlake.stack.cluster;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.model.Tables;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.model.restore.HandoverSavepoint;
import io.fleetlake.model.restore.RestoreGuard;
import io.fleetlake.operations.health.HealthProbes;
import io.fleetlake.operations.inspect.CatalogInspector;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.component.ProcessComponent;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.process.JavaCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The components of the cluster pipeline mode: a Flink JobManager ({@value #JOB_MANAGER}) and TaskManagers
 * ({@code flink-taskmanager-<n>}), each a JVM started from Flink's own entry points ({@code
 * StandaloneSessionClusterEntrypoint}, {@code TaskManagerRunner}) with the classpath of the {@code servers/flink-cluster}
 * module and its S3 plugin folder, and the pipeline job submitted to them ({@link ClusterJob}). The JobManager and
 * TaskManagers are processes like every other server of the stack: logs appended to {@code logs/<name>.log},
 * supervised, restarted with backoff after a crash.
 */
public final class FlinkClusterComponents {
    public static final String JOB_MANAGER = "flink-jobmanager";
    static final String MODULE = "servers/flink-cluster";
    static final String ARTIFACT = "server-flink-cluster";
    static final String JOB_MANAGER_MAIN = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    static final String TASK_MANAGER_MAIN = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    /** A health probe must not block for more than a couple of seconds. */
    private static final String PLUGINS_DIRECTORY_VARIABLE = "FLINK_PLUGINS_DIR";
    /** The tables the pipeline's Flink sinks commit to, whose history the restore guard reads. */
    private static final List<String> PIPELINE_TABLES =
            List.of(Tables.POSITIONS, Tables.REJECTED_POSITIONS, Tables.VEHICLE_MINUTES);

    private final StackSettings settings;
    private final FleetHome home;
    private final FlinkClusterSettings cluster;
    private final FlinkConfiguration configuration;
    private final Path directory;

    public FlinkClusterComponents(StackSettings settings, FleetHome home, FlinkClusterSettings cluster) {
        this.settings = requireNonNull(settings, "settings is null");
        this.home = requireNonNull(home, "home is null");
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.directory = directory(settings);
        this.configuration = new FlinkConfiguration(settings, cluster, directory);
    }

    /** The cluster's folder in the stack's data folder: configuration, working folders, the job's records. */
    public static Path directory(StackSettings settings) {
        return settings.dataDirectory().resolve("flink-cluster");
    }

    /**
     * The JobManager, the TaskManagers and the job.
     *
     * @param jobManagerDependencies what must be healthy before the JobManager starts
     * @param job how the job is named, what it waits for, and how it is submitted
     */
    public List<Component> components(Set<String> jobManagerDependencies, JobSubmission job) {
        requireNonNull(jobManagerDependencies, "jobManagerDependencies is null");
        requireNonNull(job, "job is null");
        List<Component> components = new ArrayList<>();
        components.add(jobManager(jobManagerDependencies));
        Set<String> jobDependencies = new HashSet<>(job.dependencies());
        for (int number = 1; number <= cluster.taskManagers(); number++) {
            components.add(taskManager(number));
            jobDependencies.add(FlinkClusterSettings.taskManagerName(number));
        }
        FlinkRestClient rest = StackFlinkRest.client(settings);
        ClusterJobFiles files = new ClusterJobFiles(directory);
        HandoverSavepoint handover = new HandoverSavepoint(settings.handoverDirectory());
        CatalogInspector catalog = new CatalogInspector(
                settings.catalogUri(), StackCatalogIdentity.of(settings).credentialIfCreated(CatalogRole.READER));
        components.add(new ClusterJob(
                job.name(),
                jobDependencies,
                rest,
                cluster,
                files,
                new RestorePoints(
                        rest::checkpoints,
                        files,
                        retainedCheckpoints(),
                        handover,
                        () -> PIPELINE_TABLES.stream()
                                .flatMap(table -> catalog.flinkCommits(table).stream())
                                .toList(),
                        settings.configuration().string(RestoreGuard.START_FROM_OFFSETS_AFTER_JOB)),
                this::jobJar,
                job.programArguments(),
                job.parallelism(),
                settings.logFile(JOB_MANAGER),
                handover));
        return components;
    }

    private Component jobManager(Set<String> dependencies) {
        Path workingDirectory = directory.resolve("jobmanager");
        return ProcessComponent.builder(JOB_MANAGER)
                .dependsOn(dependencies)
                .command(() -> {
                    configuration.write();
                    List<String> jvmOptions =
                            new ArrayList<>(cluster.jobManagerMemory().jvmOptions());
                    return java(
                            JOB_MANAGER,
                            jvmOptions,
                            JOB_MANAGER_MAIN,
                            List.of(
                                    "--configDir",
                                    configuration.configDirectory().toString(),
                                    "-D",
                                    "io.tmp.dirs=" + temporaryDirectory(workingDirectory)));
                })
                .workingDirectory(workingDirectory)
                .environment(pluginEnvironment())
                .logFile(settings.logFile(JOB_MANAGER))
                .healthProbe(StackFlinkRest.client(settings, HealthProbes.PROBE_TIMEOUT)::reachable)
                .listensOn(settings.port(StackPort.FLINK))
                .endpoint(settings.flinkRestUri())
                .build();
    }

    private Component taskManager(int number) {
        String name = FlinkClusterSettings.taskManagerName(number);
        Path workingDirectory = directory.resolve("taskmanager-" + number);
        // A new id at every start, so that the health probe sees this process registered, not its predecessor.
        AtomicReference<String> resourceId = new AtomicReference<>(name);
        Supplier<List<String>> command = () -> {
            configuration.write();
            resourceId.set(name + "-" + System.currentTimeMillis());
            return java(
                    name,
                    cluster.taskManagerMemory().jvmOptions(),
                    TASK_MANAGER_MAIN,
                    List.of(
                            "--configDir",
                            configuration.configDirectory().toString(),
                            "-D",
                            "taskmanager.resource-id=" + resourceId.get(),
                            "-D",
                            "io.tmp.dirs=" + temporaryDirectory(workingDirectory)));
        };
        FlinkRestClient rest = StackFlinkRest.client(settings, HealthProbes.PROBE_TIMEOUT);
        // Its health is its registration under the id of this start: the ports it listens on are chosen at random.
        return ProcessComponent.builder(name)
                .dependsOn(Set.of(JOB_MANAGER))
                .command(command)
                .workingDirectory(workingDirectory)
                .environment(pluginEnvironment())
                .logFile(settings.logFile(name))
                .healthProbe(() -> registered(rest, resourceId.get()))
                .endpoint(settings.flinkRestUri() + "/#/task-manager")
                .build();
    }

    private static boolean registered(FlinkRestClient rest, String resourceId) {
        try {
            return rest.taskManagers().stream()
                    .anyMatch(taskManager -> taskManager.id().equals(resourceId));
        } catch (IOException e) {
            // Not registered yet, or the JobManager is restarting: the probe asks again.
            return false;
        }
    }

    private List<String> java(String component, List<String> memoryOptions, String mainClass, List<String> arguments) {
        return new JavaCommand(
                        JavaCommand.currentJavaHome(),
                        jvmOptions(component, memoryOptions),
                        home.launchClasspath(MODULE, ARTIFACT),
                        mainClass,
                        arguments)
                .toCommandLine();
    }

    private List<String> jvmOptions(String component, List<String> memoryOptions) {
        List<String> options = new ArrayList<>(memoryOptions);
        options.addAll(home.launchJvmOptions(MODULE));
        options.add("-Dlog4j.configurationFile=" + configuration.logConfigFile().toUri());
        // The web UI shows the log of the file Flink's scripts would name here.
        options.add("-Dlog.file=" + settings.logFile(component));
        // The S3 plugin's bundled AWS SDK v1 prints a deprecation notice with a stack trace at its first use.
        options.add("-Daws.java.v1.disableDeprecationAnnouncement=true");
        options.addAll(settings.jvmOptions(component));
        return options;
    }

    /** Lists a job's retained checkpoints through Flink's file systems, in a JVM of its own. */
    private RetainedCheckpointsProcess retainedCheckpoints() {
        return new RetainedCheckpointsProcess(
                () -> {
                    List<String> command = new JavaCommand(
                                    JavaCommand.currentJavaHome(),
                                    List.of(
                                            "-Xmx256m",
                                            "-Dlog4j.configurationFile="
                                                    + configuration
                                                            .logConfigFile()
                                                            .toUri()),
                                    home.launchClasspath(MODULE, ARTIFACT),
                                    RetainedCheckpointsProcess.MAIN_CLASS,
                                    List.of())
                            .toCommandLine();
                    // The main class and its arguments are added by the caller.
                    return command.subList(0, command.size() - 1);
                },
                configuration.configDirectory(),
                pluginEnvironment());
    }

    private Map<String, String> pluginEnvironment() {
        return Map.of(PLUGINS_DIRECTORY_VARIABLE, pluginsDirectory().toString());
    }

    private Path pluginsDirectory() {
        return home.module(MODULE).resolve("target").resolve("plugins");
    }

    private Path jobJar() {
        Path jar = home.module("flink-jobs")
                .resolve("target")
                .resolve("flink-jobs-" + FleetHome.projectVersion() + "-job.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("The pipeline's job jar " + jar + " is missing: run `mvn -DskipTests"
                    + " package` in " + home.root());
        }
        if (!Files.isDirectory(pluginsDirectory())) {
            throw new IllegalStateException("Flink's S3 plugin folder " + pluginsDirectory() + " is missing: run `mvn"
                    + " -DskipTests package` in " + home.root());
        }
        return jar;
    }

    /** Flink's temporary files, RocksDB's working files among them; created here, since Flink expects it. */
    private static String temporaryDirectory(Path workingDirectory) {
        Path temporary = workingDirectory.resolve("tmp");
        try {
            Files.createDirectories(temporary);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create " + temporary, e);
        }
        return temporary.toString();
    }

    /**
     * How the pipeline job is submitted.
     *
     * @param name the job component's name
     * @param dependencies what must be healthy before the job is submitted, besides the TaskManagers
     * @param programArguments the job's arguments, computed at each submission
     * @param parallelism the job's parallelism unless {@code fleet cluster rescale} asked for another
     */
    public record JobSubmission(
            String name, Set<String> dependencies, Supplier<List<String>> programArguments, int parallelism) {
        public JobSubmission {
            requireNonNull(name, "name is null");
            dependencies = Set.copyOf(requireNonNull(dependencies, "dependencies is null"));
            requireNonNull(programArguments, "programArguments is null");
        }
    }
}
