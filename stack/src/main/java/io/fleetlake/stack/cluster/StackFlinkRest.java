package io.fleetlake.stack.cluster;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.flink.rest.FlinkRestClient.JobSummary;
import io.fleetlake.flink.rest.FlinkRestTls;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackFlinkRestIdentity;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The stack's client of the pipeline's Flink REST API: the one place that knows its address and credentials. In both
 * pipeline modes the endpoint (the cluster's JobManager, the embedded pipeline's MiniCluster) requires mutual TLS, and
 * the client presents the data folder's certificate ({@link StackFlinkRestIdentity}).
 */
public final class StackFlinkRest {
    private StackFlinkRest() {}

    /** A client of the Flink REST API at {@link StackSettings#flinkRestUri()}. */
    public static FlinkRestClient client(StackSettings settings) {
        return client(settings, FlinkRestClient.DEFAULT_TIMEOUT);
    }

    /** The same, waiting at most {@code timeout} for a connection and for each answer: for health probes. */
    public static FlinkRestClient client(StackSettings settings, Duration timeout) {
        requireNonNull(settings, "settings is null");
        return FlinkRestClient.builder(settings.flinkRestUri())
                .connectTimeout(timeout)
                .callTimeout(timeout)
                .tls(StackFlinkRestIdentity.of(settings).clientTls())
                .build();
    }

    /** Whether the REST API answers with a job in state RUNNING: the embedded pipeline's readiness. */
    public static BooleanSupplier runningJobProbe(StackSettings settings, Duration timeout) {
        FlinkRestClient client = client(settings, timeout);
        return () -> {
            try {
                return client.jobs().stream().anyMatch(JobSummary::running);
            } catch (IOException e) {
                return false;
            }
        };
    }

    /**
     * The options that give a component of its own JVM (fleet-exporter, the dashboard, the embedded pipeline) the
     * stores, for its owner-only configuration file: {@code <prefix>flink-rest-key-store}, {@code -trust-store} and
     * {@code -store-password} ({@link FlinkRestTls#fromOptions}).
     *
     * @param prefix such as {@code exporter.}
     */
    public static Map<String, String> clientOptions(StackSettings settings, String prefix) {
        requireNonNull(settings, "settings is null");
        requireNonNull(prefix, "prefix is null");
        StackFlinkRestIdentity identity = StackFlinkRestIdentity.of(settings);
        return Map.of(
                prefix + FlinkRestTls.KEY_STORE_OPTION, identity.keyStore().toString(),
                prefix + FlinkRestTls.TRUST_STORE_OPTION, identity.trustStore().toString(),
                prefix + FlinkRestTls.STORE_PASSWORD_OPTION, identity.storePassword());
    }
}
