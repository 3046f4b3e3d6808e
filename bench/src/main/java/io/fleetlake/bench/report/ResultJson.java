package io.fleetlake.bench.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;

/**
 * The results as JSON: the machine, the settings, every metric with {@code value} (a number) or {@code notMeasured}
 * (why not), its unit, target, reference figure, verdict and method; the targets of issue 13 with their verdicts; the
 * breakdowns, each with {@code columns} and {@code rows} (a label and one number or null per column) or {@code
 * notMeasured}; then the notes and the profile.
 */
public final class ResultJson {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultJson() {}

    public static String render(BenchResults results) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode machine = root.putObject("machine");
        machine.put("cores", results.machine().cores());
        machine.put("memoryBytes", results.machine().memoryBytes());
        machine.put("jdk", results.machine().jdk());
        machine.put("os", results.machine().operatingSystem());
        machine.put("date", results.machine().date().toString());
        machine.put("loadAverageAtStart", results.machine().loadAverage());
        machine.put("loadAverageAtEnd", results.loadAverageAtEnd());
        ObjectNode settings = root.putObject("settings");
        new TreeMap<>(results.settings()).forEach(settings::put);
        ArrayNode metrics = root.putArray("metrics");
        for (Metric metric : results.metrics()) {
            ObjectNode node = metrics.addObject();
            node.put("key", metric.key());
            node.put("name", metric.name());
            if (metric.value().isPresent()) {
                node.put("value", metric.value().get());
            } else {
                node.putNull("value");
                node.put("notMeasured", metric.notMeasured().orElseThrow());
            }
            node.put("unit", metric.unit());
            metric.target()
                    .ifPresentOrElse(target -> node.put("target", target.description()), () -> node.putNull("target"));
            node.put("reference", metric.reference());
            node.put("verdict", metric.verdict().name());
            node.put("method", metric.method());
        }
        ArrayNode targets = root.putArray("targets");
        for (TargetStatus target : results.targets()) {
            ObjectNode node = targets.addObject();
            node.put("figure", target.figure());
            node.put("target", target.target());
            node.put("measured", target.measured());
            node.put("verdict", target.verdict().name());
        }
        ArrayNode breakdowns = root.putArray("breakdowns");
        for (Breakdown breakdown : results.breakdowns()) {
            ObjectNode node = breakdowns.addObject();
            node.put("key", breakdown.key());
            node.put("title", breakdown.title());
            if (breakdown.notMeasured().isPresent()) {
                node.put("notMeasured", breakdown.notMeasured().get());
                continue;
            }
            node.put("labelHeader", breakdown.labelHeader());
            ArrayNode columns = node.putArray("columns");
            breakdown.columns().forEach(columns::add);
            ArrayNode rows = node.putArray("rows");
            for (Breakdown.Row row : breakdown.rows()) {
                ObjectNode rowNode = rows.addObject();
                rowNode.put("label", row.label());
                ArrayNode values = rowNode.putArray("values");
                row.values().forEach(value -> value.ifPresentOrElse(values::add, values::addNull));
            }
            ArrayNode breakdownNotes = node.putArray("notes");
            breakdown.notes().forEach(breakdownNotes::add);
        }
        ArrayNode notes = root.putArray("notes");
        results.notes().forEach(notes::add);
        ArrayNode profile = root.putArray("profile");
        results.profile().forEach(profile::add);
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot render the results as JSON", e);
        }
    }

    public static void write(BenchResults results, Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, render(results) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the results to " + file, e);
        }
    }
}
