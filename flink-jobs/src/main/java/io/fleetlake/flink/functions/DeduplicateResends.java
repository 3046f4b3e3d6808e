package io.fleetlake.flink.functions;

import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.RejectionReason;
import java.time.Duration;
import java.time.Instant;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.base.InstantSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.internal.InternalValueState;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Tells device resends from conflicting reports. Runs keyed by vehicle id; every accepted (vehicle id, event time) is
 * one small keyed state entry, kept for {@code ttl} after it was first seen, with a content fingerprint and where the
 * accepted record was read from.
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
 * <p><b>State layout.</b> The entry of a fix is a {@link FirstAccepted} value in the state namespace of its event time
 * (as the window operator keeps one entry per key and window): the state key is the vehicle id, and (vehicle id, event
 * time) identifies the entry. Why not one collection per vehicle: the heap state backend copies a state value that is
 * modified while an asynchronous checkpoint runs, and a vehicle's collection of a day's fixes was copied whole (with
 * every entry through its serializer) on almost every record. Why not a state key of (vehicle id, event time) with a
 * second {@code keyBy} to the vehicle id for the jump check: a vehicle's fixes would then reach the jump check from
 * several de-duplication subtasks, interleaved in no fixed order, whereas the jump check and the enrichment need each
 * vehicle's fixes in Kafka offset order (see {@link RejectImplausibleJumps}); and it would shuffle every payload
 * twice. Hence an operator rather than a {@code KeyedProcessFunction}, which cannot choose a state namespace.
 *
 * <p><b>Checkpoints of earlier releases.</b> Releases before this layout kept a per-vehicle map under the operator uid
 * {@code deduplicate-resends}, first of fingerprints only ({@code seen-event-times}), then with sources ({@code
 * accepted-fixes}). This operator runs under a uid of its own ({@code deduplicate-resends-by-fix}) and reads neither:
 * carrying the maps over would copy them on every checkpoint until they expire, the very cost this layout removes. A
 * restore of such a checkpoint therefore fails, naming the operator state that has no operator, unless it is told to
 * skip that state ({@code --allowNonRestoredState}); then the de-duplication starts empty, and for {@code ttl} a
 * resend of a fix accepted before the upgrade is accepted again and a conflict with one is not detected.
 *
 * <p><b>Exactly-once invariant.</b> This state and the Kafka source's offsets are snapshotted in the same checkpoint
 * and restored together. After a failover the source rewinds to the checkpointed offsets and this operator rewinds to
 * the state of the same checkpoint, which does not contain the positions after those offsets. Their replay is
 * therefore seen for the first time and emitted again (and the Iceberg sink, which commits per checkpoint, writes
 * them once); a replay is never mistaken for a resend and never dropped. The invariant only holds while the job is
 * restored from a checkpoint of this operator: starting without one (new checkpoint directory, or an earlier release's
 * checkpoint restored with its de-duplication state skipped) forgets every seen position.
 */
public final class DeduplicateResends extends AbstractStreamOperator<IngestedPosition>
        implements OneInputStreamOperator<IngestedPosition, IngestedPosition> {
    private static final long serialVersionUID = 2L;

    private final VehicleStateTtl ttl;

    private transient InternalValueState<String, Instant, FirstAccepted> accepted;
    private transient Counter resendsDeduplicated;
    private transient Rejections rejections;

    public DeduplicateResends(Duration ttl) {
        this.ttl = new VehicleStateTtl(ttl);
    }

    @Override
    public void open() throws Exception {
        super.open();
        ValueStateDescriptor<FirstAccepted> descriptor =
                ttl.applyTo(new ValueStateDescriptor<>("accepted-fix", TypeInformation.of(FirstAccepted.class)));
        accepted = internal(getOrCreateKeyedState(InstantSerializer.INSTANCE, descriptor));
        resendsDeduplicated = getMetricGroup().counter(PipelineMetricNames.RESENDS_DEDUPLICATED);
        rejections = Rejections.registerCounters(getMetricGroup());
    }

    /** The keyed state backends create every keyed state as internal state, whose namespace can be set. */
    @SuppressWarnings("unchecked")
    private static InternalValueState<String, Instant, FirstAccepted> internal(ValueState<FirstAccepted> state) {
        return (InternalValueState<String, Instant, FirstAccepted>) state;
    }

    @Override
    public void processElement(StreamRecord<IngestedPosition> record) throws Exception {
        IngestedPosition element = record.getValue();
        long fingerprint = PositionFingerprint.of(element.position());
        accepted.setCurrentNamespace(element.position().eventTime());
        FirstAccepted first = accepted.value();
        if (first == null) {
            accepted.update(new FirstAccepted(fingerprint, element.sourcePartition(), element.sourceOffset()));
            output.collect(record);
        } else if (first.fingerprint() == fingerprint) {
            resendsDeduplicated.inc();
        } else {
            reject(record, first);
        }
    }

    private void reject(StreamRecord<IngestedPosition> record, FirstAccepted first) {
        IngestedPosition element = record.getValue();
        String detail = "vehicle " + element.vehicleId() + " already reported a different position with event_time "
                + element.position().eventTime() + "; the first one was accepted and it was read from "
                + element.source().topic() + " partition " + first.sourcePartition() + " offset "
                + first.sourceOffset();
        rejections.count(RejectionReason.CONFLICTING_RESEND);
        RejectedRecord rejected = RejectedRecord.of(
                element,
                RejectionReason.CONFLICTING_RESEND,
                detail,
                Instant.ofEpochMilli(getProcessingTimeService().getCurrentProcessingTime()));
        output.collect(Rejections.SIDE_OUTPUT, new StreamRecord<>(rejected, record.getTimestamp()));
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
