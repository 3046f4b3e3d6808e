package io.fleetlake.flink.functions;

import io.fleetlake.flink.records.EnrichedPosition;
import io.fleetlake.flink.records.VehicleMinute;
import io.fleetlake.flink.windows.MinuteAggregate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

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
                        new CollectFixes(stopSpeedKmh),
                        new EmitVehicleMinute(),
                        FIXES,
                        TypeInformation.of(MinuteAggregate.class),
                        TypeInformation.of(VehicleMinute.class));
    }

    /** Collects the fixes of a window; the numbers are computed from all of them at each firing. */
    static final class CollectFixes
            implements AggregateFunction<EnrichedPosition, List<MinuteAggregate.Fix>, MinuteAggregate> {
        private static final long serialVersionUID = 1L;

        private final double stopSpeedKmh;

        CollectFixes(double stopSpeedKmh) {
            this.stopSpeedKmh = stopSpeedKmh;
        }

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
        public MinuteAggregate getResult(List<MinuteAggregate.Fix> fixes) {
            return MinuteAggregate.of(fixes, stopSpeedKmh);
        }

        @Override
        public List<MinuteAggregate.Fix> merge(List<MinuteAggregate.Fix> first, List<MinuteAggregate.Fix> second) {
            List<MinuteAggregate.Fix> merged = new ArrayList<>(first);
            merged.addAll(second);
            return merged;
        }
    }

    /** Adds the key, the window and the firing's processing time to the numbers. */
    static final class EmitVehicleMinute
            extends ProcessWindowFunction<MinuteAggregate, VehicleMinute, String, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(
                String vehicleId, Context context, Iterable<MinuteAggregate> aggregates, Collector<VehicleMinute> out) {
            Instant computedAt = Instant.ofEpochMilli(context.currentProcessingTime());
            for (MinuteAggregate aggregate : aggregates) {
                out.collect(new VehicleMinute(
                        vehicleId,
                        Instant.ofEpochMilli(context.window().getStart()),
                        Instant.ofEpochMilli(context.window().getEnd()),
                        aggregate,
                        computedAt));
            }
        }
    }
}
