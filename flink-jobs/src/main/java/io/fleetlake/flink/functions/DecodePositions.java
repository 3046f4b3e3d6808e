package io.fleetlake.flink.functions;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.codec.DecodeResult;
import io.fleetlake.model.codec.DecodeResult.Decoded;
import io.fleetlake.model.codec.DecodeResult.Rejected;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.validation.PositionValidator;
import io.fleetlake.validation.Rejection;
import io.fleetlake.validation.ValidationRules;
import java.time.Instant;
import java.util.Optional;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the payload size, decodes the payload and applies the stateless {@link PositionValidator} rules. Positions
 * that pass go to the main output; every other record goes to {@link Rejections#SIDE_OUTPUT} with its original bytes,
 * so no record vanishes and no payload can fail the job.
 *
 * <p>The time rules compare the event time with the Kafka record timestamp (the MQTT receive time), never with the
 * wall clock, so a replay after a failover and a reprocessing run months later give the first verdict.
 */
public final class DecodePositions extends ProcessFunction<RawRecord, IngestedPosition> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DecodePositions.class);

    /** Immutable and serialisable: it travels with the function, so every subtask has its own copy. */
    private final PositionValidator validator;

    private transient PositionCodec codec;
    private transient Counter recordsRead;
    private transient Rejections rejections;

    public DecodePositions(ValidationRules rules) {
        this.validator = new PositionValidator(requireNonNull(rules, "rules is null"));
    }

    @Override
    public void open(OpenContext openContext) {
        // The codec holds decoders and a JSON mapper that are costly to build and not thread-safe: one per subtask.
        codec = new PositionCodec(validator.rules().schemas());
        recordsRead = getRuntimeContext().getMetricGroup().counter(PipelineMetricNames.RECORDS_READ);
        rejections = Rejections.registerCounters(getRuntimeContext().getMetricGroup());
    }

    @Override
    public void processElement(RawRecord record, Context context, Collector<IngestedPosition> out) {
        recordsRead.inc();
        Optional<Rejection> tooLarge = validator.checkPayloadSize(record.value() == null ? 0 : record.value().length);
        if (tooLarge.isPresent()) {
            reject(
                    context,
                    RejectedRecord.undecoded(
                            record, tooLarge.get().reason(), tooLarge.get().detail(), now(context)));
            return;
        }
        DecodeResult result = decode(record);
        if (result instanceof Rejected rejected) {
            reject(context, RejectedRecord.undecoded(record, rejected.reason(), rejected.detail(), now(context)));
            return;
        }
        Position position = ((Decoded) result).position();
        Optional<Rejection> broken = validator.validate(position, record.timestamp());
        if (broken.isPresent()) {
            reject(
                    context,
                    RejectedRecord.decoded(
                            record,
                            position,
                            broken.get().reason(),
                            broken.get().detail(),
                            now(context)));
            return;
        }
        out.collect(new IngestedPosition(position, record));
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

    private void reject(Context context, RejectedRecord rejected) {
        rejections.count(rejected.reason());
        context.output(Rejections.SIDE_OUTPUT, rejected);
    }

    private static Instant now(Context context) {
        return Instant.ofEpochMilli(context.timerService().currentProcessingTime());
    }
}
