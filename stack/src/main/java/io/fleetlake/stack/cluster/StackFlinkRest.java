package io.fleetlake.stack.cluster;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.flink.rest.FlinkRestTls;
import io.fleetlake.model.PipelineMode;
import io.fleetlake.stack.StackPort;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackFlinkRestIdentity;
import java.time.Duration;
import java.util.Map;

/**
 * The stack's client of the pipeline's Flink REST API: the one place that knows its address and credentials. In the
 * cluster mode the JobManager requires mutual TLS, and the client presents the data folder's certificate ({@link
 * StackFlinkRestIdentity}); the embedded pipeline's MiniCluster answers plain HTTP on the stack's host.
 */
public final class StackFlinkRest {
    private StackFlinkRest() {}

    /** A client of the Flink REST API at {@link StackSettings#flinkRestUri()}, of the mode the settings name. */
    public static FlinkRestClient client(StackSettings settings) {
        return client(settings, FlinkRestClient.DEFAULT_TIMEOUT);
    }

    /** The same, waiting at most {@code timeout} for a connection and for each answer: for health probes. */
    public static FlinkRestClient client(StackSettings settings, Duration timeout) {
        requireNonNull(settings, "settings is null");
        return mutualTls(settings)
                ? clusterClient(settings, timeout)
                : FlinkRestClient.builder(settings.flinkRestUri())
                        .connectTimeout(timeout)
                        .callTimeout(timeout)
                        .build();
    }

    /**
     * A client of the session cluster's JobManager, whatever mode the settings name: {@code fleet cluster} asks the
     * cluster even when its own options do not repeat {@code --pipeline-mode cluster}.
     */
    public static FlinkRestClient clusterClient(StackSettings settings) {
        return clusterClient(settings, FlinkRestClient.DEFAULT_TIMEOUT);
    }

    /** The same, waiting at most {@code timeout} for a connection and for each answer: for health probes. */
    public static FlinkRestClient clusterClient(StackSettings settings, Duration timeout) {
        requireNonNull(settings, "settings is null");
        return FlinkRestClient.builder("https://" + settings.host() + ":" + settings.port(StackPort.FLINK))
                .connectTimeout(timeout)
                .callTimeout(timeout)
                .tls(StackFlinkRestIdentity.of(settings).clientTls())
                .build();
    }

    /**
     * The options that give a component of its own JVM (fleet-exporter, the dashboard) the client certificate, for its
     * owner-only configuration file: {@code <prefix>flink-rest-key-store}, {@code -trust-store} and {@code
     * -store-password} ({@link FlinkRestTls#fromOptions}); none outside the cluster mode.
     *
     * @param prefix such as {@code exporter.}
     */
    public static Map<String, String> clientOptions(StackSettings settings, String prefix) {
        requireNonNull(settings, "settings is null");
        requireNonNull(prefix, "prefix is null");
        if (!mutualTls(settings)) {
            return Map.of();
        }
        StackFlinkRestIdentity identity = StackFlinkRestIdentity.of(settings);
        return Map.of(
                prefix + FlinkRestTls.KEY_STORE_OPTION, identity.keyStore().toString(),
                prefix + FlinkRestTls.TRUST_STORE_OPTION, identity.trustStore().toString(),
                prefix + FlinkRestTls.STORE_PASSWORD_OPTION, identity.storePassword());
    }

    /**
     * Whether the pipeline runs on the session cluster, as the settings say: {@code fleet status} and {@code fleet
     * verify} need {@code --set stack.pipeline-mode=cluster} like {@code fleet up} had (the status file of the running
     * stack is not consulted: after a switch of modes in one launcher it may still name the cluster's components).
     */
    private static boolean mutualTls(StackSettings settings) {
        return settings.pipelineMode() == PipelineMode.CLUSTER;
    }
}
