package io.fleetlake.flink.functions;

import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.VehicleMinute;
import io.fleetlake.flink.windows.MinuteAggregate;
import io.fleetlake.model.PipelineMetricNames;
import io.fleetlake.model.RecordFailures;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-vehicle one-minute tumbling windows of event time, computing {@link MinuteAggregate}.
 *
 * <ul>
 *   <li>A window fires when the watermark passes its end, and again for every position that arrives within
 *       {@code allowedLateness} after that: each firing emits the whole window's numbers again, with the same key
 *       (vehicle, window start), so an upserting sink replaces the row.
 *   <li>A position that arrives later than that goes to {@link #LATE_POSITIONS} instead, with its raw record; it is
 *       already in {@code fleet.positions}, and names the (vehicle, minute) a backfill must recompute.
 * </ul>
 *
 * <p>The window keeps only the few numbers of each fix ({@link MinuteAggregate.Fix}), not the payloads, so its state
 * stays small for the allowed lateness it is kept.
 */
public final class VehicleMinutes {
    public static final Duration WINDOW_SIZE = Duration.ofMinutes(1);

    /** Positions later than the allowed lateness, with their raw record. */
    public static final OutputTag<EnrichedPosition> LATE_POSITIONS =
            new OutputTag<>("late-positions", TypeInformation.of(EnrichedPosition.class));

    private static final TypeInformation<List<MinuteAggregate.Fix>> FIXES =
            Types.LIST(TypeInformation.of(MinuteAggregate.Fix.class));

    private VehicleMinutes() {}

    /**
     * Adds the windows to a stream keyed by vehicle id; name and uid are the caller's.
     *
     * @param stopSpeedKmh the stop speed of {@code seconds_stopped}
     */
    public static SingleOutputStreamOperator<VehicleMinute> window(
            KeyedStream<EnrichedPosition, String> positions, Duration allowedLateness, double stopSpeedKmh) {
        return positions
                .window(TumblingEventTimeWindows.of(WINDOW_SIZE))
                .allowedLateness(allowedLateness)
                .sideOutputLateData(LATE_POSITIONS)
                .aggregate(
                        new CollectFixes(),
                        new EmitVehicleMinute(stopSpeedKmh),
                        FIXES,
                        FIXES,
                        TypeInformation.of(VehicleMinute.class));
    }

    /**
     * Collects the fixes of a window; the numbers are computed from all of them at each firing. Only reads numbers the
     * vehicle step has validated, so it cannot fail on a record.
     */
    static final class CollectFixes
            implements AggregateFunction<EnrichedPosition, List<MinuteAggregate.Fix>, List<MinuteAggregate.Fix>> {
        private static final long serialVersionUID = 1L;

        @Override
        public List<MinuteAggregate.Fix> createAccumulator() {
            return new ArrayList<>();
        }

        @Override
        public List<MinuteAggregate.Fix> add(EnrichedPosition position, List<MinuteAggregate.Fix> fixes) {
            fixes.add(MinuteAggregate.Fix.of(position.position()));
            return fixes;
        }

        @Override
        public List<MinuteAggregate.Fix> getResult(List<MinuteAggregate.Fix> fixes) {
            return fixes;
        }

        @Override
        public List<MinuteAggregate.Fix> merge(List<MinuteAggregate.Fix> first, List<MinuteAggregate.Fix> second) {
            List<MinuteAggregate.Fix> merged = new ArrayList<>(first);
            merged.addAll(second);
            return merged;
        }
    }

    /**
     * Computes the minute's numbers and adds the key, the window and the firing's processing time. A minute whose
     * numbers cannot be computed (no such input is known: every fix is validated; any failure {@link RecordFailures}
     * counts as the minute's, a {@link StackOverflowError} or heap {@link OutOfMemoryError} too) is logged and counted
     * ({@link PipelineMetricNames#MINUTE_ROWS_FAILED}) instead of failing the task; its positions are in {@code
     * fleet.positions}, so {@code fleet backfill} can compute it.
     */
    static final class EmitVehicleMinute
            extends ProcessWindowFunction<List<MinuteAggregate.Fix>, VehicleMinute, String, TimeWindow> {
        private static final long serialVersionUID = 1L;
        private static final Logger LOG = LoggerFactory.getLogger(EmitVehicleMinute.class);

        private final double stopSpeedKmh;
        private transient Counter minuteRowsFailed;

        EmitVehicleMinute(double stopSpeedKmh) {
            this.stopSpeedKmh = stopSpeedKmh;
        }

        @Override
        public void open(OpenContext openContext) {
            minuteRowsFailed = getRuntimeContext().getMetricGroup().counter(PipelineMetricNames.MINUTE_ROWS_FAILED);
        }

        @Override
        public void process(
                String vehicleId,
                Context context,
                Iterable<List<MinuteAggregate.Fix>> windowFixes,
                Collector<VehicleMinute> out) {
            Instant computedAt = Instant.ofEpochMilli(context.currentProcessingTime());
            for (List<MinuteAggregate.Fix> fixes : windowFixes) {
                VehicleMinute minute;
                try {
                    minute = new VehicleMinute(
                            vehicleId,
                            Instant.ofEpochMilli(context.window().getStart()),
                            Instant.ofEpochMilli(context.window().getEnd()),
                            MinuteAggregate.of(fixes, stopSpeedKmh),
                            computedAt);
                } catch (Throwable failure) {
                    RecordFailures.rethrowUnlessPerRecord(failure);
                    minuteRowsFailed.inc();
                    LOG.error(
                            "Cannot compute the minute {} of vehicle {}; its row is missing until `fleet backfill"
                                    + " --vehicle {}` recomputes it: {}",
                            Instant.ofEpochMilli(context.window().getStart()),
                            vehicleId,
                            vehicleId,
                            ProcessingErrors.summary("vehicle-minutes", failure),
                            failure);
                    continue;
                }
                out.collect(minute);
            }
        }
    }
}
