package io.fleetlake.flink.functions;

import io.fleetlake.flink.records.IngestedPosition;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;

/**
 * The pipeline's event time: the fix's {@code event_time}.
 *
 * <p><b>Where the watermark is generated.</b> Right after {@code decode-positions}, chained to it in each source
 * subtask, not in the Kafka source: the event time is inside the payload and only known once it is decoded (the
 * source reads raw bytes so that undecodable payloads become dead letters instead of failing the job), and rejected
 * records, which may have no event time at all, never reach the watermark. The watermark trails the newest event time
 * the subtask has seen by {@code pipeline.max-out-of-orderness}.
 *
 * <p><b>Idleness.</b> The generator runs per subtask, over every Kafka partition that subtask reads. A subtask whose
 * partitions fall silent (a quiet partition, more subtasks than partitions) is marked idle after
 * {@code pipeline.source-idleness}, so that the windows follow the watermark of the subtasks that still receive
 * positions instead of stalling; it becomes active again with its next position.
 *
 * <p>Because the watermark is per subtask and not per partition, positions of a partition that lags far behind another
 * one read by the same subtask (a consumer catching up) can be late; they are then counted into their window within
 * {@code pipeline.allowed-lateness}, or sent to the late-positions topic after it.
 */
public final class EventTime {
    private EventTime() {}

    /** Timestamps from the fix's event time; bounded out-of-orderness, idle subtasks ignored. */
    public static WatermarkStrategy<IngestedPosition> positions(Duration maxOutOfOrderness, Duration idleness) {
        return WatermarkStrategy.<IngestedPosition>forBoundedOutOfOrderness(maxOutOfOrderness)
                .withTimestampAssigner((position, recordTimestamp) ->
                        position.position().eventTime().toEpochMilli())
                .withIdleness(idleness);
    }

    /**
     * For a stream without event time that is joined with the positions (the route updates): it declares itself idle,
     * so that the joining operator's watermark is the positions' alone. Without any watermark it would hold every
     * window back forever. A watermark at the end of time would be wrong too: while every position subtask is idle
     * (a quiet night), the join would take that watermark as its own, close every window for good and send every later
     * position to the late output. Its records still pass (Flink announces the stream active just around each one).
     */
    public static <T> WatermarkStrategy<T> withoutEventTime() {
        return WatermarkStrategy.forGenerator(context -> new AlwaysIdle<>());
    }

    private static final class AlwaysIdle<T> implements WatermarkGenerator<T> {
        @Override
        public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {}

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {
            output.markIdle();
        }
    }
}
