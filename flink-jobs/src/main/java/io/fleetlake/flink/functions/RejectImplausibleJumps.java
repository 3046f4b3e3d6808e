package io.fleetlake.flink.functions;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.validation.PositionValidator;
import io.fleetlake.validation.Rejection;
import io.fleetlake.validation.ValidationRules;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Rejects GPS glitches: a fix the vehicle could only have reached from its previous accepted fix at an implausible
 * speed ({@link PositionValidator#checkJump}) is rejected as {@link RejectionReason#IMPLAUSIBLE_JUMP}. It is the last
 * rejection point of the pipeline: what it emits is accepted ({@link PipelineMetricNames#RECORDS_ACCEPTED}).
 *
 * <p>The rule, per vehicle (keyed by vehicle id), with the last accepted fix as the baseline:
 *
 * <ol>
 *   <li>No baseline (the vehicle's first fix, or its state expired): accepted; it becomes the baseline.
 *   <li>Plausible against the baseline: accepted; the baseline becomes the later of the two by event time, so a late
 *       arrival does not move it back. A remembered rejected fix is forgotten.
 *   <li>Implausible against the baseline, but plausible against the fix rejected just before, and within
 *       {@code jump-check-max-gap} of it: two consecutive fixes agree, so the baseline was the glitch (typically a
 *       receiver's first fix after a cold start, which rule 1 had to accept) or the vehicle was really moved (towed,
 *       carried on a truck). Accepted, and it becomes the new baseline. The earlier rejected fix stays rejected; it
 *       can be reprocessed from the dead letters, and is then judged against the new baseline.
 *   <li>Otherwise rejected, and remembered as the last rejected fix.
 * </ol>
 *
 * <p>Why rule 3: without it, one glitch accepted as a baseline would reject every following correct fix until the
 * baseline expired. Why not more: one remembered rejected fix is enough to tell "one glitch" from "the baseline was
 * wrong" (two agreeing fixes against one), and keeps the state at two positions per vehicle.
 *
 * <p>Runs after {@link DeduplicateResends}, so a resend is never judged as a jump and a conflicting resend never
 * becomes a baseline. Both states expire {@code ttl} after they were last written, like the de-duplication state.
 *
 * <p><b>Exactly-once invariant.</b> The state is checkpointed with the source offsets, and all records of a vehicle
 * come from one Kafka partition (the key is the vehicle id), in offset order: a replay after a failover starts from the
 * checkpointed state and sees the same fixes in the same order, so it reaches the same verdicts.
 */
public final class RejectImplausibleJumps extends KeyedProcessFunction<String, IngestedPosition, IngestedPosition> {
    private static final long serialVersionUID = 1L;

    private final PositionValidator validator;
    private final VehicleStateTtl ttl;

    private transient ValueState<Position> lastAccepted;
    private transient ValueState<Position> lastRejected;
    private transient Counter recordsAccepted;
    private transient Counter baselineResets;
    private transient Rejections rejections;

    public RejectImplausibleJumps(ValidationRules rules, Duration ttl) {
        this.validator = new PositionValidator(requireNonNull(rules, "rules is null"));
        this.ttl = new VehicleStateTtl(ttl);
    }

    @Override
    public void open(OpenContext openContext) {
        lastAccepted = getRuntimeContext()
                .getState(ttl.applyTo(
                        new ValueStateDescriptor<>("last-accepted-fix", TypeInformation.of(Position.class))));
        lastRejected = getRuntimeContext()
                .getState(ttl.applyTo(
                        new ValueStateDescriptor<>("last-rejected-jump", TypeInformation.of(Position.class))));
        recordsAccepted = getRuntimeContext().getMetricGroup().counter(PipelineMetricNames.RECORDS_ACCEPTED);
        baselineResets = getRuntimeContext().getMetricGroup().counter(PipelineMetricNames.JUMP_BASELINE_RESETS);
        rejections = Rejections.registerCounters(getRuntimeContext().getMetricGroup());
    }

    @Override
    public void processElement(IngestedPosition element, Context context, Collector<IngestedPosition> out)
            throws Exception {
        Position candidate = element.position();
        Position baseline = lastAccepted.value();
        if (baseline == null) {
            accept(element, candidate, out);
            return;
        }
        Optional<Rejection> jump = validator.checkJump(baseline, candidate);
        if (jump.isEmpty()) {
            accept(element, later(baseline, candidate), out);
            return;
        }
        Position rejectedBefore = lastRejected.value();
        if (rejectedBefore != null && agree(rejectedBefore, candidate)) {
            baselineResets.inc();
            accept(element, candidate, out);
            return;
        }
        lastRejected.update(candidate);
        rejections.count(RejectionReason.IMPLAUSIBLE_JUMP);
        context.output(
                Rejections.SIDE_OUTPUT,
                RejectedRecord.of(
                        element,
                        RejectionReason.IMPLAUSIBLE_JUMP,
                        jump.get().detail(),
                        Instant.ofEpochMilli(context.timerService().currentProcessingTime())));
    }

    private void accept(IngestedPosition element, Position baseline, Collector<IngestedPosition> out) throws Exception {
        lastAccepted.update(baseline);
        lastRejected.clear();
        recordsAccepted.inc();
        out.collect(element);
    }

    /** Two fixes agree when they are close enough in time to be compared and the move between them is plausible. */
    private boolean agree(Position first, Position second) {
        Duration gap = Duration.between(first.eventTime(), second.eventTime()).abs();
        return gap.compareTo(validator.rules().jumpCheckMaxGap()) <= 0
                && validator.checkJump(first, second).isEmpty();
    }

    private static Position later(Position first, Position second) {
        return second.eventTime().isBefore(first.eventTime()) ? first : second;
    }
}
