package io.fleetlake.stack.cluster;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.rest.FlinkRestClient;
import io.fleetlake.stack.StackSettings;

/** The stack's client of the pipeline's Flink REST API: the one place that knows its address and credentials. */
public final class StackFlinkRest {
    private StackFlinkRest() {}

    /** A client of the Flink REST API at {@link StackSettings#flinkRestUri()}. */
    public static FlinkRestClient client(StackSettings settings) {
        requireNonNull(settings, "settings is null");
        return FlinkRestClient.builder(settings.flinkRestUri()).build();
    }
}
