package io.fleetlake.flink.functions;

import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.codec.DecodeResult;
import io.fleetlake.model.codec.DecodeResult.Decoded;
import io.fleetlake.model.codec.DecodeResult.Rejected;
import io.fleetlake.model.codec.PositionCodec;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes device payloads and applies {@link MinimalValidation}. Accepted positions go to the main output; every
 * record that cannot be used goes to {@link #REJECTED} with its original bytes, so no record vanishes, and no payload
 * can fail the job.
 */
public final class DecodePositions extends ProcessFunction<RawRecord, IngestedPosition> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DecodePositions.class);

    /** Records that could not be decoded or broke a minimal rule. */
    public static final OutputTag<RejectedRecord> REJECTED =
            new OutputTag<>("rejected-positions", TypeInformation.of(RejectedRecord.class));

    private final MinimalValidation validation = new MinimalValidation();

    private transient PositionCodec codec;
    private transient Counter recordsRead;
    private transient Counter recordsDecoded;
    private transient Counter recordsRejected;
    private transient Map<RejectionReason, Counter> rejectedByReason;

    @Override
    public void open(OpenContext openContext) {
        // The codec holds decoders and a JSON mapper that are costly to build and not thread-safe: one per subtask.
        codec = PositionCodec.bundled();
        MetricGroup metrics = getRuntimeContext().getMetricGroup();
        recordsRead = metrics.counter("recordsRead");
        recordsDecoded = metrics.counter("recordsDecoded");
        recordsRejected = metrics.counter("recordsRejected");
        rejectedByReason = new EnumMap<>(RejectionReason.class);
        MetricGroup byReason = metrics.addGroup("rejectionReason");
        for (RejectionReason reason : RejectionReason.values()) {
            rejectedByReason.put(reason, byReason.counter(reason.name()));
        }
    }

    @Override
    public void processElement(RawRecord record, Context context, Collector<IngestedPosition> out) {
        recordsRead.inc();
        DecodeResult result = decode(record);
        if (result instanceof Rejected rejected) {
            reject(record, rejected.reason(), rejected.detail(), context);
            return;
        }
        Position position = ((Decoded) result).position();
        Optional<MinimalValidation.Violation> violation = validation.check(position);
        if (violation.isPresent()) {
            reject(record, violation.get().reason(), violation.get().detail(), context);
            return;
        }
        recordsDecoded.inc();
        out.collect(new IngestedPosition(position, record.partition(), record.offset(), record.timestamp()));
    }

    private DecodeResult decode(RawRecord record) {
        try {
            return codec.decode(record.value());
        } catch (RuntimeException e) {
            // The codec reports bad input as a result; an exception is a codec bug. The record is dead-lettered
            // with the exception as detail instead of failing the job on every restart.
            LOG.warn(
                    "Decoder failed on {}-{}@{}; dead-lettering the record",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    e);
            return new Rejected(RejectionReason.MALFORMED_PAYLOAD, "Decoder failed: " + e);
        }
    }

    private void reject(RawRecord record, RejectionReason reason, String detail, Context context) {
        recordsRejected.inc();
        rejectedByReason.get(reason).inc();
        Instant rejectedAt = Instant.ofEpochMilli(context.timerService().currentProcessingTime());
        context.output(REJECTED, RejectedRecord.of(record, reason, detail, rejectedAt));
    }
}
