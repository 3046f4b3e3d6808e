package io.fleetlake.flink.functions;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.api.common.state.StateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;

/**
 * How long the pipeline's per-vehicle state lives ({@code pipeline.dedup-ttl}), shared by every keyed operator so that a
 * vehicle that disappears leaves nothing behind in any of them: an entry expires {@code ttl} after it was last written,
 * is never returned once expired, and is also left out of full snapshots, so checkpoints do not carry it.
 */
final class VehicleStateTtl implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Duration ttl;

    VehicleStateTtl(Duration ttl) {
        this.ttl = requireNonNull(ttl, "ttl is null");
        if (ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must be positive, got " + ttl);
        }
    }

    /** Enables this time to live on {@code descriptor} and returns it. */
    <D extends StateDescriptor<?, ?>> D applyTo(D descriptor) {
        descriptor.enableTimeToLive(StateTtlConfig.newBuilder(ttl)
                .updateTtlOnCreateAndWrite()
                .neverReturnExpired()
                .cleanupFullSnapshot()
                .build());
        return descriptor;
    }
}
