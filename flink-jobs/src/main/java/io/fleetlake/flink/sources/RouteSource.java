package io.fleetlake.flink.sources;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.records.RoutePoll;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Polls the planning API for every vehicle's route: one {@link RoutePoll} at start and then one every
 * {@code enrichment.route-refresh}; a fetch that fails or takes longer than {@code enrichment.planning-timeout} is
 * logged and yields nothing, never an exception. Unbounded; run it with parallelism 1 (each subtask would poll).
 *
 * <p>A source of its own rather than a {@code DataGeneratorSource} with a fetching generator: a generator runs in the
 * task's mailbox thread, so a slow planning API would hold the source's checkpoint barrier for up to the timeout, and
 * with it (barrier alignment) the positions entering the enrichment. Here the HTTP exchange runs on the HTTP client's
 * threads and the reader only hands over finished answers, so the source never blocks.
 *
 * <p>There is nothing to split and nothing to checkpoint: the answer of the next poll replaces everything. The
 * enumerator assigns no split; the reader polls from its start.
 */
public final class RouteSource implements Source<RoutePoll, RouteSource.Unsplit, RouteSource.Unsplit> {
    private static final long serialVersionUID = 1L;

    private final URI planningUri;
    private final Duration refresh;
    private final Duration timeout;
    private final Duration staleAfter;
    // Optional is not serialisable: null when the planning API asks for no token.
    private final String token;

    private RouteSource(
            URI planningUri, Duration refresh, Duration timeout, Duration staleAfter, Optional<String> token) {
        this.planningUri = requireNonNull(planningUri, "planningUri is null");
        this.token = requireNonNull(token, "token is null").orElse(null);
        this.refresh = requireNonNull(refresh, "refresh is null");
        this.timeout = requireNonNull(timeout, "timeout is null");
        this.staleAfter = requireNonNull(staleAfter, "staleAfter is null");
    }

    /**
     * Polls {@code <planningUri>/v1/routes} with the refresh interval, timeout and token ({@code
     * enrichment.planning-token}) of the configuration.
     */
    public static RouteSource create(URI planningUri, EnrichmentConfig config) {
        return new RouteSource(
                planningUri, config.routeRefresh(), config.planningTimeout(), config.routeStaleAfter(), config.token());
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SourceReader<RoutePoll, Unsplit> createReader(SourceReaderContext context) {
        return new RouteSourceReader(
                new PlanningApiClient(planningUri, Optional.ofNullable(token), timeout, Clock.systemUTC()),
                refresh,
                staleAfter,
                context.metricGroup());
    }

    @Override
    public SplitEnumerator<Unsplit, Unsplit> createEnumerator(SplitEnumeratorContext<Unsplit> context) {
        return new NothingToAssign();
    }

    @Override
    public SplitEnumerator<Unsplit, Unsplit> restoreEnumerator(
            SplitEnumeratorContext<Unsplit> context, Unsplit checkpoint) {
        return new NothingToAssign();
    }

    @Override
    public SimpleVersionedSerializer<Unsplit> getSplitSerializer() {
        return new UnsplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<Unsplit> getEnumeratorCheckpointSerializer() {
        return new UnsplitSerializer();
    }

    /** The planning API is one endpoint: the source's only split type and enumerator state, never assigned. */
    public enum Unsplit implements SourceSplit {
        INSTANCE;

        @Override
        public String splitId() {
            return "planning-api";
        }
    }

    private static final class NothingToAssign implements SplitEnumerator<Unsplit, Unsplit> {
        @Override
        public void start() {}

        @Override
        public void handleSplitRequest(int subtaskId, String requesterHostname) {}

        @Override
        public void addSplitsBack(List<Unsplit> splits, int subtaskId) {}

        @Override
        public void addReader(int subtaskId) {}

        @Override
        public Unsplit snapshotState(long checkpointId) {
            return Unsplit.INSTANCE;
        }

        @Override
        public void close() {}
    }

    private static final class UnsplitSerializer implements SimpleVersionedSerializer<Unsplit> {
        private static final byte[] NOTHING = new byte[0];

        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(Unsplit unsplit) {
            return NOTHING;
        }

        @Override
        public Unsplit deserialize(int version, byte[] serialized) {
            return Unsplit.INSTANCE;
        }
    }
}
