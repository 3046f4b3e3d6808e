package io.fleetlake.bench.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlightRecordingSummaryTest {
    @Test
    void areaIsTheFirstKnownFrameFromTheTop() {
        assertThat(FlightRecordingSummary.area(List.of(
                        "java.util.HashMap.get",
                        "org.apache.avro.io.BinaryDecoder.readLong",
                        "org.apache.parquet.column.impl.ColumnWriterV1.write")))
                .isEqualTo("Avro decoding");
        assertThat(FlightRecordingSummary.area(List.of(
                        "com.github.luben.zstd.Zstd.compress", "org.apache.parquet.hadoop.CodecFactory.compress")))
                .isEqualTo("compression (zstd, snappy, lz4)");
        assertThat(FlightRecordingSummary.area(List.of(
                        "org.apache.iceberg.parquet.ParquetWriter.add", "io.fleetlake.flink.sinks.IcebergTableSink")))
                .isEqualTo("Parquet writing");
        assertThat(FlightRecordingSummary.area(List.of("io.fleetlake.flink.operators.Enrich.map")))
                .isEqualTo("fleet pipeline operators");
        assertThat(FlightRecordingSummary.area(List.of("java.lang.Thread.run")))
                .isEqualTo("other (JDK, Flink runtime)");
    }

    @Test
    void fleetFrameIsTheFleetsOwnMethodNearestTheTop() {
        assertThat(FlightRecordingSummary.fleetFrame(List.of(
                        "java.util.HashMap.put",
                        "org.apache.flink.runtime.state.heap.CopyOnWriteStateMap.get",
                        "io.fleetlake.flink.functions.DeduplicateResends.processElement",
                        "io.fleetlake.flink.FleetPipeline.run")))
                .isEqualTo("io.fleetlake.flink.functions.DeduplicateResends.processElement");
        assertThat(FlightRecordingSummary.fleetFrame(List.of("java.lang.Thread.run")))
                .isEqualTo(FlightRecordingSummary.NO_FLEET_FRAME);
    }

    @Test
    void describesAreasAndTopMethodsBySharesOfSamples() {
        FlightRecordingSummary summary = new FlightRecordingSummary(
                200,
                Map.of("a.B.slow", 120, "a.B.medium", 60, "a.B.fast", 20),
                Map.of("Parquet writing", 150, "Avro decoding", 50),
                Map.of("io.fleetlake.flink.functions.DeduplicateResends.processElement", 180, "other", 20),
                Duration.ofMillis(1_234),
                7);

        assertThat(summary.describe(2))
                .containsExactly(
                        "200 execution samples; by area (first matching frame from the top):",
                        "   75.0 %  Parquet writing",
                        "   25.0 %  Avro decoding",
                        "top methods by self samples:",
                        "   60.0 %  a.B.slow",
                        "   30.0 %  a.B.medium",
                        "by the fleet's own code nearest the top of the stack (the operator the time is spent for):",
                        "   90.0 %  io.fleetlake.flink.functions.DeduplicateResends.processElement",
                        "   10.0 %  other",
                        "GC: 7 collections, 1,234 ms of pauses in the window");
    }

    @Test
    void readsTheEventsOfARealRecordingInsideTheWindow(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("test.jfr");
        Instant from = Instant.now().minusSeconds(1);
        try (Recording recording = new Recording()) {
            recording.enable("jdk.GarbageCollection");
            recording.start();
            System.gc();
            recording.stop();
            recording.dump(file);
        }
        Instant to = Instant.now().plusSeconds(1);

        FlightRecordingSummary inside = FlightRecordingSummary.read(file, from, to);
        FlightRecordingSummary before = FlightRecordingSummary.read(file, from.minusSeconds(60), from.minusSeconds(30));

        assertThat(inside.describe(5).get(inside.describe(5).size() - 1)).matches("GC: [1-9]\\d* collections, .*");
        assertThat(before.describe(5)).last().isEqualTo("GC: 0 collections, 0 ms of pauses in the window");
        assertThat(before.samples()).isZero();
    }
}
