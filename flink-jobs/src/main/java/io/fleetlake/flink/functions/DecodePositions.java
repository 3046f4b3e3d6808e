package io.fleetlake.flink.functions;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.Position;
import io.fleetlake.model.RecordFailures;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.codec.DecodeResult;
import io.fleetlake.model.codec.DecodeResult.Decoded;
import io.fleetlake.model.codec.DecodeResult.Rejected;
import io.fleetlake.model.codec.PositionCodec;
import io.fleetlake.model.codec.PositionSchemas;
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
 * Checks the payload size, decodes the payload and applies the stateless {@link PositionValidator} rules, including
 * the vehicle id's format and its agreement with the MQTT topic ({@code mqtt.topic} header) the payload was published
 * on. Positions that pass go to the main output; every other record goes to {@link Rejections#SIDE_OUTPUT} with its
 * original bytes, so no record vanishes.
 *
 * <p>No record can fail the task: the codec reports bad input as a result (and bounds every length a payload declares
 * before it allocates), and any failure of a step on one record that {@link RecordFailures} counts as the record's (an
 * exception of a codec or rule bug or of a value no rule foresaw, a {@link StackOverflowError}, an {@link
 * OutOfMemoryError} of the heap) dead-letters that record as {@link RejectionReason#PROCESSING_ERROR} with a summary of
 * the failure; the task goes on. Other errors (a missing class, a broken JVM) fail the task.
 *
 * <p>The time rules compare the event time with the Kafka record timestamp (the MQTT receive time), never with the
 * wall clock, so a replay after a failover and a reprocessing run months later give the first verdict.
 */
public final class DecodePositions extends ProcessFunction<RawRecord, IngestedPosition> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DecodePositions.class);

    /** Immutable and serialisable: it travels with the function, so every subtask has its own copy. */
    private final PositionValidator validator;

    private final PayloadDecoder.Factory decoders;
    private transient PayloadDecoder codec;
    private transient Counter recordsRead;
    private transient Rejections rejections;

    public DecodePositions(ValidationRules rules) {
        this(rules, schemas -> new PositionCodec(schemas)::decode);
    }

    /** With another decoder than the codec of the rules' schemas; a seam for tests. */
    DecodePositions(ValidationRules rules, PayloadDecoder.Factory decoders) {
        this.validator = new PositionValidator(requireNonNull(rules, "rules is null"));
        this.decoders = requireNonNull(decoders, "decoders is null");
    }

    @Override
    public void open(OpenContext openContext) {
        // The codec holds decoders and a JSON mapper that are costly to build and not thread-safe: one per subtask.
        codec = decoders.open(validator.rules().schemas());
        recordsRead = getRuntimeContext().getMetricGroup().counter(PipelineMetricNames.RECORDS_READ);
        rejections = Rejections.registerCounters(getRuntimeContext().getMetricGroup());
    }

    @Override
    public void processElement(RawRecord record, Context context, Collector<IngestedPosition> out) {
        recordsRead.inc();
        Instant now = Instant.ofEpochMilli(context.timerService().currentProcessingTime());
        Object outcome;
        try {
            outcome = decodeAndValidate(record, now);
        } catch (Throwable failure) {
            // Per-record failures only (RecordFailures): a broken JVM or a missing class still fails the task.
            RecordFailures.rethrowUnlessPerRecord(failure);
            String summary = ProcessingErrors.summary("decode-positions", failure);
            LOG.warn(
                    "Dead-lettering {}-{}@{}: {}",
                    record.topic(),
                    record.partition(),
                    record.offset(),
                    summary,
                    failure);
            outcome = RejectedRecord.undecoded(record, RejectionReason.PROCESSING_ERROR, summary, now);
        }
        if (outcome instanceof RejectedRecord rejected) {
            rejections.count(rejected.reason());
            context.output(Rejections.SIDE_OUTPUT, rejected);
        } else {
            out.collect((IngestedPosition) outcome);
        }
    }

    /** Decodes payloads in one subtask; the codec of the model module in production. */
    @FunctionalInterface
    interface PayloadDecoder {
        DecodeResult decode(byte[] payload);

        /** Opens a decoder per subtask (decoders are not thread-safe); serialisable, it travels with the function. */
        @FunctionalInterface
        interface Factory extends java.io.Serializable {
            PayloadDecoder open(PositionSchemas schemas);
        }
    }

    /** The accepted position, or the rejection; built completely before anything is emitted. */
    Object decodeAndValidate(RawRecord record, Instant now) {
        Optional<Rejection> tooLarge = validator.checkPayloadSize(record.value() == null ? 0 : record.value().length);
        if (tooLarge.isPresent()) {
            return RejectedRecord.undecoded(
                    record, tooLarge.get().reason(), tooLarge.get().detail(), now);
        }
        DecodeResult result = codec.decode(record.value());
        if (result instanceof Rejected rejected) {
            return RejectedRecord.undecoded(record, rejected.reason(), rejected.detail(), now);
        }
        Position position = ((Decoded) result).position();
        Optional<Rejection> broken = validator.validate(position, record.timestamp(), record.mqttTopic());
        if (broken.isPresent()) {
            return RejectedRecord.decoded(
                    record, position, broken.get().reason(), broken.get().detail(), now);
        }
        return new IngestedPosition(position, record);
    }
}
