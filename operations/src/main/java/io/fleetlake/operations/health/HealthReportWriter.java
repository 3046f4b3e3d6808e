package io.fleetlake.operations.health;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetlake.operations.health.HealthReport.Check;
import io.fleetlake.operations.health.HealthReport.Status;
import io.fleetlake.operations.inspect.ConsumerLagInspector.PartitionLag;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;

/**
 * {@code fleet status}'s two forms of a report: a screen for an operator, and JSON for scripts and the dashboard's
 * health panel (the same document fleet-exporter serves on {@code /health}).
 */
public final class HealthReportWriter {
    private static final ObjectMapper JSON = new ObjectMapper();

    private HealthReportWriter() {}

    /** One line per check under its area, then the reasons the stack is unhealthy. */
    public static String text(HealthReport report) {
        StringBuilder out = new StringBuilder();
        List<Check> failures = report.failures();
        out.append("Fleet status at ")
                .append(report.takenAt())
                .append(": ")
                .append(report.healthy() ? "HEALTHY" : "UNHEALTHY")
                .append(failures.isEmpty() ? "" : " (" + failures.size() + " problem(s))")
                .append(
                        report.warnings().isEmpty()
                                ? ""
                                : ", " + report.warnings().size() + " warning(s)")
                .append(System.lineSeparator());
        report.byArea().forEach((area, checks) -> {
            out.append(System.lineSeparator()).append(capitalise(area)).append(System.lineSeparator());
            int width = checks.stream()
                    .mapToInt(check -> check.subject().length())
                    .max()
                    .orElse(0);
            for (Check check : checks) {
                out.append(String.format(
                        "  %-4s %-" + width + "s  %s%n", label(check.status()), check.subject(), check.detail()));
            }
        });
        if (!failures.isEmpty()) {
            out.append(System.lineSeparator()).append("Unhealthy because:").append(System.lineSeparator());
            for (Check check : failures) {
                out.append("  - ")
                        .append(check.area())
                        .append(" / ")
                        .append(check.subject())
                        .append(": ")
                        .append(check.detail())
                        .append(System.lineSeparator());
            }
        }
        return out.toString();
    }

    /** The report and the main figures of its snapshot as JSON. */
    public static String json(HealthReport report, HealthSnapshot snapshot) {
        ObjectNode root = JSON.createObjectNode();
        root.put("taken_at", report.takenAt().toString());
        root.put("status", report.overall().name());
        root.put("healthy", report.healthy());
        ArrayNode problems = root.putArray("problems");
        report.failures()
                .forEach(check -> problems.add(check.area() + " / " + check.subject() + ": " + check.detail()));
        ArrayNode checks = root.putArray("checks");
        for (Check check : report.checks()) {
            ObjectNode node = checks.addObject();
            node.put("area", check.area());
            node.put("subject", check.subject());
            node.put("status", check.status().name());
            node.put("detail", check.detail());
        }
        ArrayNode lag = root.putArray("lag");
        snapshot.lag().forEach((group, reading) -> reading.value().ifPresent(partitions -> {
            for (PartitionLag partition : partitions) {
                ObjectNode node = lag.addObject();
                node.put("group", group);
                node.put("topic", partition.topic());
                node.put("partition", partition.partition());
                node.put("records", partition.records());
                node.put("seconds", seconds(partition.age()));
            }
        }));
        ObjectNode commits = root.putObject("last_commit_age_seconds");
        snapshot.commits().forEach((table, reading) -> reading.value()
                .flatMap(value -> value.lastDataCommit())
                .ifPresent(at -> commits.put(table, seconds(Duration.between(at, snapshot.takenAt())))));
        snapshot.deadLetters().value().ifPresent(counts -> {
            ObjectNode deadLetters = root.putObject("dead_letters");
            deadLetters.put("since", counts.since().toString());
            deadLetters.put("total", counts.total());
            snapshot.rawAppended().value().ifPresent(appended -> deadLetters.put("raw_appended", appended));
            ObjectNode reasons = deadLetters.putObject("by_reason");
            new TreeMap<>(counts.byReason()).forEach(reasons::put);
        });
        snapshot.redis().value().ifPresent(freshness -> {
            ObjectNode redis = root.putObject("redis");
            redis.put("vehicles", freshness.vehicles());
            freshness.newest().ifPresent(age -> redis.put("newest_age_seconds", seconds(age)));
            freshness.median().ifPresent(age -> redis.put("median_age_seconds", seconds(age)));
            freshness.oldest().ifPresent(age -> redis.put("oldest_age_seconds", seconds(age)));
        });
        snapshot.connector().value().ifPresent(state -> {
            ObjectNode connector = root.putObject("connector");
            connector.put("name", state.connector());
            connector.put("state", state.state());
            ObjectNode tasks = connector.putObject("tasks");
            state.tasks().forEach(task -> tasks.put(Integer.toString(task.id()), task.state()));
        });
        ObjectNode pipeline = root.putObject("pipeline");
        pipeline.put("state", snapshot.pipeline().state());
        snapshot.pipeline().numRestarts().ifPresent(restarts -> pipeline.put("restarts", restarts));
        snapshot.pipeline().lastRestart().ifPresent(at -> pipeline.put("last_restart", at.toString()));
        snapshot.pipeline()
                .lastCheckpoint()
                .ifPresent(checkpoint -> pipeline.put(
                        "last_checkpoint_age_seconds",
                        seconds(Duration.between(checkpoint.completedAt(), snapshot.takenAt()))));
        snapshot.supervisor().ifPresent(status -> {
            ObjectNode supervisor = root.putObject("supervisor_restarts");
            status.components().forEach(component -> supervisor.put(component.name(), component.restarts()));
        });
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("Cannot write the health report as JSON", e);
        }
    }

    private static double seconds(Duration duration) {
        return Math.max(0, duration.toMillis()) / 1000.0;
    }

    private static String label(Status status) {
        return switch (status) {
            case OK -> "ok";
            case WARN -> "WARN";
            case FAIL -> "FAIL";
        };
    }

    private static String capitalise(String area) {
        return Character.toUpperCase(area.charAt(0)) + area.substring(1);
    }
}
