package io.fleetlake.flink.functions;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.RejectionReason;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Tells device resends from conflicting reports. Keyed by vehicle id; each vehicle's accepted event times are kept in
 * keyed {@link MapState} for {@code ttl} after they were first seen, with a content fingerprint and where the accepted
 * record was read from.
 *
 * <ul>
 *   <li>Same (vehicle id, event time) and same content: the same fix sent again (a device retrying after a lost
 *       acknowledgement, or a connector re-delivering an MQTT message), although at a new Kafka offset. It is dropped
 *       and counted as {@link PipelineMetricNames#RESENDS_DEDUPLICATED}.
 *   <li>Same (vehicle id, event time), different content (a device bug or a clock jump): which one is right is unknown,
 *       so the first accepted stays and this one is rejected as {@link RejectionReason#CONFLICTING_RESEND}, naming
 *       the first accepted record's source, to the rejection side output. Never dropped silently.
 * </ul>
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

    private transient MapState<Instant, FirstAccepted> accepted;
    private transient MapState<Instant, Long> fingerprintsWithoutSource;
    private transient Counter resendsDeduplicated;
    private transient Rejections rejections;

    public DeduplicateResends(Duration ttl) {
        this.ttl = requireNonNull(ttl, "ttl is null");
        if (ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must be positive, got " + ttl);
        }
    }

    @Override
    public void open(OpenContext openContext) {
        accepted = getRuntimeContext()
                .getMapState(withTtl(new MapStateDescriptor<>(
                        "accepted-fixes", Types.INSTANT, TypeInformation.of(FirstAccepted.class))));
        // Checkpoints of releases before conflicts were rejected hold only fingerprints, under this name. They are
        // read, never written, and expire with the TTL like every entry.
        fingerprintsWithoutSource = getRuntimeContext()
                .getMapState(withTtl(new MapStateDescriptor<>("seen-event-times", Types.INSTANT, Types.LONG)));
        resendsDeduplicated = getRuntimeContext().getMetricGroup().counter(PipelineMetricNames.RESENDS_DEDUPLICATED);
        rejections = Rejections.registerCounters(getRuntimeContext().getMetricGroup());
    }

    private <V> MapStateDescriptor<Instant, V> withTtl(MapStateDescriptor<Instant, V> descriptor) {
        descriptor.enableTimeToLive(StateTtlConfig.newBuilder(ttl)
                .updateTtlOnCreateAndWrite()
                .neverReturnExpired()
                // Expired entries are also left out of full snapshots, so checkpoints do not carry them.
                .cleanupFullSnapshot()
                .build());
        return descriptor;
    }

    @Override
    public void processElement(IngestedPosition element, Context context, Collector<IngestedPosition> out)
            throws Exception {
        Instant eventTime = element.position().eventTime();
        long fingerprint = PositionFingerprint.of(element.position());
        FirstAccepted first = accepted.get(eventTime);
        if (first == null) {
            Long earlierRelease = fingerprintsWithoutSource.get(eventTime);
            if (earlierRelease == null) {
                accepted.put(
                        eventTime, new FirstAccepted(fingerprint, element.sourcePartition(), element.sourceOffset()));
                out.collect(element);
                return;
            }
            if (earlierRelease == PositionFingerprint.withoutBatteryLevel(element.position())) {
                resendsDeduplicated.inc();
            } else {
                reject(element, "its source was not recorded (accepted by an earlier release)", context);
            }
            return;
        }
        if (first.fingerprint() == fingerprint) {
            resendsDeduplicated.inc();
        } else {
            reject(
                    element,
                    "it was read from " + element.source().topic() + " partition " + first.sourcePartition()
                            + " offset " + first.sourceOffset(),
                    context);
        }
    }

    private void reject(IngestedPosition element, String firstSource, Context context) {
        String detail = "vehicle " + element.vehicleId() + " already reported a different position with event_time "
                + element.position().eventTime() + "; the first one was accepted and " + firstSource;
        rejections.count(RejectionReason.CONFLICTING_RESEND);
        context.output(
                Rejections.SIDE_OUTPUT,
                RejectedRecord.of(
                        element,
                        RejectionReason.CONFLICTING_RESEND,
                        detail,
                        Instant.ofEpochMilli(context.timerService().currentProcessingTime())));
    }

    /**
     * The accepted position of a (vehicle, event time): its content fingerprint and where it was read. The topic is
     * not stored: the pipeline reads one topic, and an entry is kept per accepted position, so every byte counts.
     *
     * @param fingerprint {@link PositionFingerprint#of} of the accepted position
     * @param sourcePartition raw topic partition of the accepted record
     * @param sourceOffset raw topic offset of the accepted record
     */
    public record FirstAccepted(long fingerprint, int sourcePartition, long sourceOffset) {}
}
