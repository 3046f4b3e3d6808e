package io.fleetlake.stack.cluster;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.rest.FlinkRestStores;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackFlinkRestIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The cluster's Flink configuration, {@code <data-dir>/flink-cluster/conf/config.yaml}, written at every start of the
 * JobManager or a TaskManager, and the console logging every cluster process uses (the stack appends its output to
 * the component's log file).
 *
 * <p>Every endpoint is bound to the stack's host (Flink otherwise listens on all interfaces); state lives in RocksDB
 * with incremental checkpoints on the S3-compatible store, through the {@code flink-s3-fs-hadoop} plugin with path-style
 * access; checkpoints are retained when the job is cancelled or fails, so that it can be resumed from them; the
 * JobManager accepts the job jar through the REST API ({@code /jars/upload}, raised size limit); slots are spread over
 * the TaskManagers, so that a lost TaskManager always takes part of the job with it, and a lost TaskManager is noticed
 * within seconds (heartbeats every 2 s).
 */
public final class FlinkConfiguration {
    static final String CONFIG_FILE = "config.yaml";
    static final String LOG_CONFIG_FILE = "log4j-console.properties";
    /** Largest job jar the REST API accepts; the pipeline's shaded jar is about 180 MB. */
    static final int MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

    private final StackSettings stack;
    private final FlinkClusterSettings cluster;
    private final Path directory;

    /** @param directory the cluster's folder, {@code <data-dir>/flink-cluster} */
    public FlinkConfiguration(StackSettings stack, FlinkClusterSettings cluster, Path directory) {
        this.stack = requireNonNull(stack, "stack is null");
        this.cluster = requireNonNull(cluster, "cluster is null");
        this.directory = requireNonNull(directory, "directory is null");
    }

    public Path configDirectory() {
        return directory.resolve("conf");
    }

    public Path logConfigFile() {
        return configDirectory().resolve(LOG_CONFIG_FILE);
    }

    /** The settings of {@code config.yaml}, in the order they are written. */
    public Map<String, String> options() {
        String host = stack.host();
        Map<String, String> options = new LinkedHashMap<>();
        options.put("jobmanager.rpc.address", host);
        options.put("jobmanager.rpc.port", Integer.toString(stack.port(StackPort.FLINK_RPC)));
        options.put("jobmanager.bind-host", host);
        options.put("rest.address", host);
        options.put("rest.bind-address", host);
        options.put("rest.port", Integer.toString(stack.port(StackPort.FLINK)));
        options.put("taskmanager.host", host);
        options.put("taskmanager.bind-host", host);
        // Token providers (Hadoop, Kerberos) are not used and fail on newer JVMs.
        options.put("security.delegation.tokens.enabled", "false");

        options.put("taskmanager.numberOfTaskSlots", Integer.toString(cluster.slotsPerTaskManager()));
        options.put("taskmanager.cpu.cores", Integer.toString(cluster.slotsPerTaskManager()));
        options.putAll(cluster.taskManagerMemory().flinkOptions());
        options.putAll(cluster.jobManagerMemory().flinkOptions());
        // A TaskManager that ran out of memory (metaspace after many job generations) stays broken: every task placed
        // on it fails again. Exiting hands it to the stack's supervisor, which starts a fresh process.
        options.put("taskmanager.jvm-exit-on-oom", "true");
        // Each TaskManager gets its share of the job, so a lost TaskManager takes part of every operator with it.
        options.put("taskmanager.load-balance.mode", "slots");
        // A killed TaskManager is noticed after two failed heartbeats rather than at the 50 s timeout, which keeps its
        // vanished slots from being offered to the restarting job for that long.
        options.put("heartbeat.interval", "2s");
        options.put("heartbeat.timeout", "20s");

        options.put("state.backend.type", "rocksdb");
        options.put("execution.checkpointing.incremental", "true");
        options.put("execution.checkpointing.dir", cluster.checkpointDirectory());
        options.put("execution.checkpointing.savepoint-dir", cluster.savepointDirectory());
        options.put("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION");

        options.put("s3.endpoint", stack.s3Endpoint());
        options.put("s3.endpoint.region", stack.s3Region());
        options.put("s3.path.style.access", "true");
        options.put("s3.access-key", stack.s3AccessKey());
        options.put("s3.secret-key", stack.s3SecretKey());

        options.put(
                "web.upload.dir",
                directory.resolve("jobmanager").resolve("uploads").toString());
        options.put("rest.server.max-content-length", Integer.toString(MAX_UPLOAD_BYTES));
        options.put("rest.client.max-content-length", Integer.toString(MAX_UPLOAD_BYTES));
        // Mutual TLS: the REST endpoint answers only clients presenting a certificate of the data folder's CA, which
        // is what keeps a stranger from cancelling the job or uploading a jar; the store password stays in this
        // owner-only file. Jar submission stays enabled, since the stack submits the job through /jars/upload. The
        // cancel flag only hides the web UI's button (Flink's REST cancel ignores it).
        FlinkRestStores stores = StackFlinkRestIdentity.of(stack).stores();
        options.putAll(stores.endpointOptions());
        // The same certificate on the cluster's own connections (Pekko RPC, blob server, data exchange): a local
        // process without it can neither join as a TaskManager nor talk to the JobManager's RPC port.
        options.putAll(stores.internalOptions());
        options.put("web.submit.enable", "true");
        options.put("web.cancel.enable", "false");
        options.putAll(cluster.flinkOptions());
        return options;
    }

    /**
     * Writes {@code config.yaml} (owner-only: it holds the S3 secret and the key stores' password) and the logging
     * configuration.
     */
    public void write() {
        try {
            Files.createDirectories(configDirectory());
            // Written aside and moved into place: the TaskManagers start together, and none may read half a file.
            Path next = Files.createTempFile(
                    configDirectory(),
                    CONFIG_FILE,
                    ".next",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(next, yaml(options()));
            Files.move(
                    next,
                    configDirectory().resolve(CONFIG_FILE),
                    StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            Path logging = Files.createTempFile(configDirectory(), LOG_CONFIG_FILE, ".next");
            Files.writeString(logging, LOGGING);
            Files.move(logging, logConfigFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the Flink configuration in " + configDirectory(), e);
        }
    }

    /** Flat keys, every value a single-quoted YAML scalar, so that no value is read as another type or as syntax. */
    static String yaml(Map<String, String> options) {
        StringBuilder yaml = new StringBuilder(
                "# Written by the embedded stack at every start of the cluster; set cluster.* keys instead.\n");
        options.forEach((key, value) ->
                yaml.append(key).append(": '").append(value.replace("'", "''")).append("'\n"));
        return yaml.toString();
    }

    private static final String LOGGING = String.join(
            "\n",
            "# Written by the embedded stack: every Flink process logs to its standard output, which the stack appends",
            "# to logs/<component>.log.",
            "monitorInterval = 30",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.console.ref = ConsoleAppender",
            "appender.console.name = ConsoleAppender",
            "appender.console.type = CONSOLE",
            "appender.console.layout.type = PatternLayout",
            "appender.console.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [%t] %c{1.} - %m%n",
            "logger.pekko.name = org.apache.pekko",
            "logger.pekko.level = WARN",
            "logger.kafka.name = org.apache.kafka",
            "logger.kafka.level = WARN",
            "logger.hadoop.name = org.apache.hadoop",
            "logger.hadoop.level = WARN",
            "logger.zookeeper.name = org.apache.zookeeper",
            "logger.zookeeper.level = WARN",
            "");
}
