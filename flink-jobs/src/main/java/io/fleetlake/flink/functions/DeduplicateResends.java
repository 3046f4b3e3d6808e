package io.fleetlake.flink.functions;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.IngestedPosition;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Drops device resends: a position whose (vehicle id, event time) was already accepted is the same fix sent again
 * (a device retrying after a lost acknowledgement, or a connector re-delivering an MQTT message), even though it
 * arrives at a new Kafka offset. Keyed by vehicle id; each vehicle's accepted event times are kept in keyed
 * {@link MapState} for {@code ttl} after they were first seen, then expire.
 *
 * <p>The map value is a {@link PositionFingerprint content fingerprint}, so that "same identity, different payload"
 * (a device bug or a clock jump) is told apart from a true resend; both are dropped for now and counted separately.
 *
 * <p><b>Exactly-once invariant.</b> This state and the Kafka source's offsets are snapshotted in the same checkpoint
 * and restored together. After a failover the source rewinds to the checkpointed offsets and this operator rewinds to
 * the state of the same checkpoint, which does not contain the positions after those offsets. Their replay is
 * therefore seen for the first time and emitted again (and the Iceberg sink, which commits per checkpoint, writes
 * them once); a replay is never mistaken for a resend and never dropped. The invariant only holds while the job is
 * restored from a checkpoint: starting without one (new checkpoint directory) forgets every seen position.
 */
public final class DeduplicateResends extends KeyedProcessFunction<String, IngestedPosition, IngestedPosition> {
    private static final long serialVersionUID = 1L;

    private final Duration ttl;

    private transient MapState<Instant, Long> seen;
    private transient Counter resendsDropped;
    private transient Counter conflictingResendsDropped;

    public DeduplicateResends(Duration ttl) {
        this.ttl = requireNonNull(ttl, "ttl is null");
        if (ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must be positive, got " + ttl);
        }
    }

    @Override
    public void open(OpenContext openContext) {
        MapStateDescriptor<Instant, Long> descriptor =
                new MapStateDescriptor<>("seen-event-times", Types.INSTANT, Types.LONG);
        descriptor.enableTimeToLive(StateTtlConfig.newBuilder(ttl)
                .updateTtlOnCreateAndWrite()
                .neverReturnExpired()
                // Expired entries are also left out of full snapshots, so checkpoints do not carry them.
                .cleanupFullSnapshot()
                .build());
        seen = getRuntimeContext().getMapState(descriptor);
        resendsDropped = getRuntimeContext().getMetricGroup().counter("resendsDropped");
        conflictingResendsDropped = getRuntimeContext().getMetricGroup().counter("conflictingResendsDropped");
    }

    @Override
    public void processElement(IngestedPosition element, Context context, Collector<IngestedPosition> out)
            throws Exception {
        Instant eventTime = element.position().eventTime();
        long fingerprint = PositionFingerprint.of(element.position());
        Long seenFingerprint = seen.get(eventTime);
        if (seenFingerprint == null) {
            seen.put(eventTime, fingerprint);
            out.collect(element);
            return;
        }
        resendsDropped.inc();
        if (seenFingerprint != fingerprint) {
            conflictingResendsDropped.inc();
        }
    }
}
