package io.fleetlake.flink.functions;

import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.RejectionReason;
import java.util.EnumMap;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.util.OutputTag;

/**
 * The side output every rejecting operator writes to, and the rejection counters each of them registers
 * ({@link PipelineMetricNames#RECORDS_REJECTED} and one per reason).
 */
public final class Rejections {
    /** Records an operator refused, with their original bytes; the job unions these of every operator. */
    public static final OutputTag<RejectedRecord> SIDE_OUTPUT =
            new OutputTag<>("rejected-positions", TypeInformation.of(RejectedRecord.class));

    private final Counter recordsRejected;
    private final Map<RejectionReason, Counter> byReason;

    private Rejections(Counter recordsRejected, Map<RejectionReason, Counter> byReason) {
        this.recordsRejected = recordsRejected;
        this.byReason = byReason;
    }

    /** Registers the counters in an operator's metric group; call it from {@code open}. */
    public static Rejections registerCounters(MetricGroup metrics) {
        Map<RejectionReason, Counter> byReason = new EnumMap<>(RejectionReason.class);
        MetricGroup reasons = metrics.addGroup(PipelineMetricNames.REJECTION_REASON_GROUP);
        // Every reason in every rejecting operator, so that sums over operators need no knowledge of who rejects what.
        for (RejectionReason reason : RejectionReason.values()) {
            byReason.put(reason, reasons.counter(reason.name()));
        }
        return new Rejections(metrics.counter(PipelineMetricNames.RECORDS_REJECTED), byReason);
    }

    public void count(RejectionReason reason) {
        recordsRejected.inc();
        byReason.get(reason).inc();
    }
}
