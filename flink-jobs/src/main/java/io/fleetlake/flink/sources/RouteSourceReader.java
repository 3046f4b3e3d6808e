package io.fleetlake.flink.sources;

import static java.util.Objects.requireNonNull;

import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.records.RoutePoll;
import io.fleetlake.flink.sources.PlanningApiClient.PlanningApiException;
import io.fleetlake.model.PipelineMetricNames;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one fetch of the planning API in flight: the first at start, each next one {@code refresh} after the previous
 * answer was handed over (or its failure logged). {@link #pollNext} only looks at a finished fetch and never waits, so
 * checkpoint barriers pass at any time. Runs in the task's mailbox thread, apart from the fetch itself.
 */
final class RouteSourceReader implements SourceReader<RoutePoll, RouteSource.Unsplit> {
    private static final Logger LOG = LoggerFactory.getLogger(RouteSourceReader.class);

    private final PlanningApiClient client;
    private final Duration refresh;
    private final Duration staleAfter;
    private final Counter pollsSucceeded;
    private final Counter pollsFailed;
    private CompletableFuture<RoutePoll> pending;
    private int failuresInARow;
    private boolean answeredBefore;

    RouteSourceReader(PlanningApiClient client, Duration refresh, Duration staleAfter, MetricGroup metrics) {
        this.client = requireNonNull(client, "client is null");
        this.refresh = requireNonNull(refresh, "refresh is null");
        this.staleAfter = requireNonNull(staleAfter, "staleAfter is null");
        this.pollsSucceeded = metrics.counter(PipelineMetricNames.ROUTE_POLLS_SUCCEEDED);
        this.pollsFailed = metrics.counter(PipelineMetricNames.ROUTE_POLLS_FAILED);
    }

    @Override
    public void start() {
        LOG.info("Polling the planning API at {} every {}", client.routesUri(), refresh);
        pending = client.fetch();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<RoutePoll> output) {
        if (!pending.isDone()) {
            return InputStatus.NOTHING_AVAILABLE;
        }
        CompletableFuture<RoutePoll> finished = pending;
        pending = CompletableFuture.runAsync(
                        () -> {}, CompletableFuture.delayedExecutor(refresh.toMillis(), TimeUnit.MILLISECONDS))
                .thenCompose(ignored -> client.fetch());
        RoutePoll poll;
        try {
            poll = finished.join();
        } catch (CompletionException e) {
            failed(e.getCause() == null ? e : e.getCause());
            return InputStatus.NOTHING_AVAILABLE;
        }
        succeeded(poll);
        output.collect(poll);
        return InputStatus.NOTHING_AVAILABLE;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        // Completes normally also when the fetch failed: pollNext then logs the failure.
        return pending.handle((poll, failure) -> null);
    }

    private void succeeded(RoutePoll poll) {
        pollsSucceeded.inc();
        if (failuresInARow > 0) {
            LOG.info(
                    "The planning API at {} answered again after {} failed attempts: {} routes",
                    client.routesUri(),
                    failuresInARow,
                    poll.routes().size());
        } else if (!answeredBefore) {
            LOG.info(
                    "The planning API at {} answered: {} routes",
                    client.routesUri(),
                    poll.routes().size());
        } else {
            LOG.debug(
                    "The planning API at {} answered: {} routes",
                    client.routesUri(),
                    poll.routes().size());
        }
        failuresInARow = 0;
        answeredBefore = true;
    }

    private void failed(Throwable failure) {
        pollsFailed.inc();
        failuresInARow++;
        String problem;
        if (failure instanceof HttpTimeoutException) {
            problem = "did not answer within " + client.timeout() + " (" + EnrichmentConfig.PLANNING_TIMEOUT + ")";
        } else if (failure instanceof PlanningApiException) {
            problem = failure.getMessage();
        } else if (failure instanceof IOException) {
            problem = "cannot be reached (" + failure + ")";
        } else {
            LOG.warn(
                    "Fetching routes from the planning API at {} failed unexpectedly ({} in a row); no route update"
                            + " this time, next attempt in {}",
                    client.routesUri(),
                    failuresInARow,
                    refresh,
                    failure);
            return;
        }
        LOG.warn(
                "The planning API at {} {}: no route update this time ({} failed in a row), next attempt in {}."
                        + " Positions are enriched with the last known routes, flagged enrichment_stale once a route"
                        + " was fetched more than {} ago ({})",
                client.routesUri(),
                problem,
                failuresInARow,
                refresh,
                staleAfter,
                EnrichmentConfig.ROUTE_STALE_AFTER);
    }

    @Override
    public List<RouteSource.Unsplit> snapshotState(long checkpointId) {
        return List.of();
    }

    @Override
    public void addSplits(List<RouteSource.Unsplit> splits) {
        // The enumerator assigns none; the reader polls without a split.
    }

    @Override
    public void notifyNoMoreSplits() {
        // Unbounded: polling goes on without splits.
    }

    @Override
    public void close() {
        if (pending != null) {
            pending.cancel(false);
        }
    }
}
