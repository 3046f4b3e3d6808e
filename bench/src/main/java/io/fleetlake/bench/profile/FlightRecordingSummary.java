package io.fleetlake.bench.profile;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a JVM spent its time in a window of a flight recording: the {@code jdk.ExecutionSample} events (Java threads
 * running Java code, sampled every 10-20 ms with the {@code profile} settings) counted by their top frame (self time
 * per method), by the first frame from the top that belongs to a known area (Avro, JSON, Kryo, Parquet, ...), and by the
 * first frame of the fleet's own code (which operator the time is spent for), plus the garbage collections' pause time.
 */
public final class FlightRecordingSummary {
    /** Areas by package prefix, checked in this order from the top frame down; the first match wins. */
    static final Map<String, List<String>> AREAS = areas();

    static final String NO_FLEET_FRAME = "no fleet code on the stack (Flink runtime, connectors' own threads)";
    private static final String FLEET_PACKAGE = "io.fleetlake.";

    private final int samples;
    private final Map<String, Integer> selfByMethod;
    private final Map<String, Integer> byArea;
    private final Map<String, Integer> byFleetFrame;
    private final Duration gcPauses;
    private final int collections;

    FlightRecordingSummary(
            int samples,
            Map<String, Integer> selfByMethod,
            Map<String, Integer> byArea,
            Map<String, Integer> byFleetFrame,
            Duration gcPauses,
            int collections) {
        this.samples = samples;
        this.selfByMethod = Map.copyOf(selfByMethod);
        this.byArea = Map.copyOf(byArea);
        this.byFleetFrame = Map.copyOf(byFleetFrame);
        this.gcPauses = requireNonNull(gcPauses, "gcPauses is null");
        this.collections = collections;
    }

    /** Reads the recording's events between {@code from} and {@code to}. */
    public static FlightRecordingSummary read(Path recording, Instant from, Instant to) throws IOException {
        int samples = 0;
        Map<String, Integer> selfByMethod = new HashMap<>();
        Map<String, Integer> byArea = new HashMap<>();
        Map<String, Integer> byFleetFrame = new HashMap<>();
        Duration gcPauses = Duration.ZERO;
        int collections = 0;
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                Instant time = event.getStartTime();
                if (time.isBefore(from) || time.isAfter(to)) {
                    continue;
                }
                String type = event.getEventType().getName();
                if (type.equals("jdk.ExecutionSample")) {
                    RecordedStackTrace stack = event.getStackTrace();
                    if (stack == null || stack.getFrames().isEmpty()) {
                        continue;
                    }
                    samples++;
                    List<String> frames = new ArrayList<>();
                    for (RecordedFrame frame : stack.getFrames()) {
                        if (frame.isJavaFrame()) {
                            frames.add(methodName(frame.getMethod()));
                        }
                    }
                    if (!frames.isEmpty()) {
                        selfByMethod.merge(frames.get(0), 1, Integer::sum);
                    }
                    byArea.merge(area(frames), 1, Integer::sum);
                    byFleetFrame.merge(fleetFrame(frames), 1, Integer::sum);
                } else if (type.equals("jdk.GarbageCollection")) {
                    gcPauses = gcPauses.plus(event.getDuration("sumOfPauses"));
                    collections++;
                }
            }
        }
        return new FlightRecordingSummary(samples, selfByMethod, byArea, byFleetFrame, gcPauses, collections);
    }

    /** The area of a sample: the first frame from the top whose class belongs to one, else the JVM/Flink runtime. */
    static String area(List<String> frames) {
        for (String frame : frames) {
            for (Map.Entry<String, List<String>> area : AREAS.entrySet()) {
                for (String prefix : area.getValue()) {
                    if (frame.startsWith(prefix)) {
                        return area.getKey();
                    }
                }
            }
        }
        return "other (JDK, Flink runtime)";
    }

    /** The fleet's own method nearest the top of the stack: the operator the sample's time was spent for. */
    static String fleetFrame(List<String> frames) {
        return frames.stream()
                .filter(frame -> frame.startsWith(FLEET_PACKAGE))
                .findFirst()
                .orElse(NO_FLEET_FRAME);
    }

    public int samples() {
        return samples;
    }

    /** Lines for the report: the areas by share of samples, the top methods by self samples, the GC pauses. */
    public List<String> describe(int topMethods) {
        List<String> lines = new ArrayList<>();
        lines.add(String.format(
                Locale.ROOT, "%,d execution samples; by area (first matching frame from the top):", samples));
        byArea.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                .forEach(entry -> lines.add(
                        String.format(Locale.ROOT, "  %5.1f %%  %s", share(entry.getValue()), entry.getKey())));
        lines.add("top methods by self samples:");
        addTop(lines, selfByMethod, topMethods);
        lines.add("by the fleet's own code nearest the top of the stack (the operator the time is spent for):");
        addTop(lines, byFleetFrame, topMethods);
        lines.add(String.format(
                Locale.ROOT, "GC: %d collections, %,d ms of pauses in the window", collections, gcPauses.toMillis()));
        return lines;
    }

    private void addTop(List<String> lines, Map<String, Integer> counts, int limit) {
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                .limit(limit)
                .forEach(entry -> lines.add(
                        String.format(Locale.ROOT, "  %5.1f %%  %s", share(entry.getValue()), entry.getKey())));
    }

    private double share(int count) {
        return samples == 0 ? 0 : 100.0 * count / samples;
    }

    private static String methodName(RecordedMethod method) {
        return method.getType().getName() + "." + method.getName();
    }

    private static Map<String, List<String>> areas() {
        Map<String, List<String>> areas = new LinkedHashMap<>();
        areas.put("Avro decoding", List.of("org.apache.avro."));
        areas.put("JSON (Jackson)", List.of("com.fasterxml.jackson.", "org.apache.iceberg.shaded.com.fasterxml."));
        areas.put(
                "Parquet writing",
                List.of(
                        "org.apache.parquet.",
                        "org.apache.iceberg.parquet.",
                        "org.apache.iceberg.shaded.org.apache.parquet."));
        areas.put(
                "compression (zstd, snappy, lz4)",
                List.of(
                        "com.github.luben.zstd.",
                        "org.xerial.snappy.",
                        "net.jpountz.",
                        "at.yawk.lz4.",
                        "io.airlift.compress."));
        areas.put(
                "Kryo / Flink serialisation",
                List.of(
                        "com.esotericsoftware.kryo.",
                        "org.apache.flink.api.java.typeutils.runtime.",
                        "org.apache.flink.api.common.typeutils.",
                        "org.apache.flink.runtime.io.network.",
                        "org.apache.flink.core.memory."));
        areas.put("Redis (Jedis)", List.of("redis.clients."));
        areas.put("Kafka client", List.of("org.apache.kafka.", "org.apache.flink.connector.kafka."));
        areas.put("Iceberg (other)", List.of("org.apache.iceberg."));
        areas.put("AWS SDK / S3", List.of("software.amazon.awssdk."));
        areas.put("validation", List.of("io.fleetlake.validation.", "org.locationtech.jts."));
        areas.put("fleet pipeline operators", List.of("io.fleetlake."));
        areas.put("Flink state backend", List.of("org.apache.flink.runtime.state.", "org.apache.flink.contrib."));
        return areas;
    }
}
