package io.fleetlake.bench.phase;

import static java.util.Objects.requireNonNull;

import io.fleetlake.bench.BenchConsole;
import io.fleetlake.bench.BenchSettings;
import io.fleetlake.bench.BenchStack;
import io.fleetlake.bench.load.BacklogTimeline;
import io.fleetlake.bench.load.FleetFeed;
import io.fleetlake.bench.report.ResultCollector;

/**
 * What every phase works with.
 *
 * @param feed the bench's fleet, driving the routes the stack's planning API serves
 * @param timeline the event-time spans of the run's backlogs, one after the other
 */
public record PhaseContext(
        BenchSettings settings,
        BenchStack stack,
        FleetFeed feed,
        BacklogTimeline timeline,
        BenchConsole console,
        ResultCollector results) {
    public PhaseContext {
        requireNonNull(settings, "settings is null");
        requireNonNull(stack, "stack is null");
        requireNonNull(feed, "feed is null");
        requireNonNull(timeline, "timeline is null");
        requireNonNull(console, "console is null");
        requireNonNull(results, "results is null");
    }
}
