package io.fleetlake.operations.health;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The verdict on a {@link HealthSnapshot}: one check per component, consumer group partition, table, and so on, each
 * OK, WARN (worth a look, not unhealthy) or FAIL (unhealthy), with the facts that led to it.
 *
 * @param takenAt when the snapshot was read
 * @param checks every check, grouped by area in the order they are shown
 */
public record HealthReport(Instant takenAt, List<Check> checks) {
    public HealthReport {
        requireNonNull(takenAt, "takenAt is null");
        checks = List.copyOf(requireNonNull(checks, "checks is null"));
    }

    /** The worst status of any check. */
    public Status overall() {
        return checks.stream().map(Check::status).max(Comparator.naturalOrder()).orElse(Status.OK);
    }

    public boolean healthy() {
        return overall() != Status.FAIL;
    }

    /** The failed checks: the reasons the stack is unhealthy. */
    public List<Check> failures() {
        return checks.stream().filter(check -> check.status() == Status.FAIL).toList();
    }

    public List<Check> warnings() {
        return checks.stream().filter(check -> check.status() == Status.WARN).toList();
    }

    /** The checks of each area, areas in the order of their first check. */
    public Map<String, List<Check>> byArea() {
        Map<String, List<Check>> areas = new LinkedHashMap<>();
        for (Check check : checks) {
            areas.computeIfAbsent(check.area(), area -> new ArrayList<>()).add(check);
        }
        return areas;
    }

    /** How a check came out, in increasing severity. */
    public enum Status {
        OK,
        WARN,
        FAIL
    }

    /**
     * One check.
     *
     * @param area what it is about: {@code components}, {@code lag}, {@code commits}, ...
     * @param subject the component, partition, table, ... checked
     * @param status its outcome
     * @param detail the facts, and for a WARN or FAIL what is wrong
     */
    public record Check(String area, String subject, Status status, String detail) {
        public Check {
            requireNonNull(area, "area is null");
            requireNonNull(subject, "subject is null");
            requireNonNull(status, "status is null");
            requireNonNull(detail, "detail is null");
        }
    }
}
