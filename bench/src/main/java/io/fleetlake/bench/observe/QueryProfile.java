package io.fleetlake.bench.observe;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The figures of a Trino {@code EXPLAIN ANALYZE VERBOSE} answer that tell where a query's time went: queued, analysis,
 * planning and execution time, and for the table scan the Iceberg split generation metrics (data files and manifests
 * read and skipped, scan planning duration), the rows it read and its splits. Summed over every scan of the plan.
 *
 * @param figures by name (see the constants), times in milliseconds; a figure the answer lacks is absent
 */
public record QueryProfile(Map<String, Double> figures) {
    public static final String QUEUED_MS = "queued ms";
    public static final String ANALYSIS_MS = "analysis ms";
    public static final String PLANNING_MS = "planning ms";
    public static final String EXECUTION_MS = "execution ms";
    public static final String SCAN_PLANNING_MS = "Iceberg scan planning ms";
    public static final String DATA_FILES = "data files read";
    public static final String SKIPPED_DATA_FILES = "data files skipped";
    public static final String DATA_MANIFESTS = "data manifests read";
    public static final String SKIPPED_DATA_MANIFESTS = "data manifests skipped";
    public static final String INPUT_ROWS = "rows read by the scan";
    public static final String SPLITS = "splits";

    private static final Pattern HEADER = Pattern.compile(
            "Queued: ([0-9.]+\\w+), Analysis: ([0-9.]+\\w+), Planning: ([0-9.]+\\w+), Execution: ([0-9.]+\\w+)");
    private static final Pattern COUNT = Pattern.compile("'(\\w+)' = LongCount\\{total=(\\d+)}");
    private static final Pattern SCAN_PLANNING = Pattern.compile("'scanPlanningDuration' = \\{duration=([0-9.]+\\w+)}");
    private static final Pattern INPUT =
            Pattern.compile("^\\s*Input: (\\d+) rows \\([^)]*\\), Filtered: [^\\n]*?Splits: (\\d+)", Pattern.MULTILINE);
    private static final Pattern DURATION = Pattern.compile("([0-9.]+)(ns|us|ms|s|m|h|d)");

    public QueryProfile {
        figures = Map.copyOf(requireNonNull(figures, "figures is null"));
    }

    /** Reads the figures out of the plan text; what it does not find is left out. */
    public static QueryProfile parse(String plan) {
        requireNonNull(plan, "plan is null");
        Map<String, Double> figures = new LinkedHashMap<>();
        Matcher header = HEADER.matcher(plan);
        if (header.find()) {
            figures.put(QUEUED_MS, millis(header.group(1)));
            figures.put(ANALYSIS_MS, millis(header.group(2)));
            figures.put(PLANNING_MS, millis(header.group(3)));
            figures.put(EXECUTION_MS, millis(header.group(4)));
        }
        Matcher scanPlanning = SCAN_PLANNING.matcher(plan);
        while (scanPlanning.find()) {
            figures.merge(SCAN_PLANNING_MS, millis(scanPlanning.group(1)), Double::sum);
        }
        Matcher count = COUNT.matcher(plan);
        while (count.find()) {
            String name =
                    switch (count.group(1)) {
                        case "dataFiles" -> DATA_FILES;
                        case "skippedDataFiles" -> SKIPPED_DATA_FILES;
                        case "dataManifests" -> DATA_MANIFESTS;
                        case "skippedDataManifests" -> SKIPPED_DATA_MANIFESTS;
                        default -> null;
                    };
            if (name != null) {
                figures.merge(name, Double.parseDouble(count.group(2)), Double::sum);
            }
        }
        Matcher input = INPUT.matcher(plan);
        while (input.find()) {
            figures.merge(INPUT_ROWS, Double.parseDouble(input.group(1)), Double::sum);
            figures.merge(SPLITS, Double.parseDouble(input.group(2)), Double::sum);
        }
        return new QueryProfile(figures);
    }

    public OptionalDouble figure(String name) {
        Double value = figures.get(name);
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    /** An airlift duration as Trino prints it ({@code 432.00us}, {@code 3.30s}, {@code 1.20m}) in milliseconds. */
    static double millis(String duration) {
        Matcher matcher = DURATION.matcher(duration.trim());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("Not a Trino duration: " + duration);
        }
        double amount = Double.parseDouble(matcher.group(1));
        return switch (matcher.group(2).toLowerCase(Locale.ROOT)) {
            case "ns" -> amount / 1e6;
            case "us" -> amount / 1e3;
            case "ms" -> amount;
            case "s" -> amount * 1e3;
            case "m" -> amount * 60e3;
            case "h" -> amount * 3_600e3;
            case "d" -> amount * 86_400e3;
            default -> throw new IllegalArgumentException("Unknown unit in " + duration);
        };
    }
}
