package io.fleetlake.ingest;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the connector and its tasks running: called every {@code connect.supervision-interval}, it restarts whatever is
 * not RUNNING, whatever the state (FAILED, UNASSIGNED, RESTARTING that does not end, a task missing), and a RUNNING task
 * that no longer moves messages; it registers the connector again if it disappeared.
 *
 * <ul>
 *   <li>A connector or task must be seen in a bad state by two checks in a row before it is restarted: UNASSIGNED and
 *       RESTARTING pass by themselves during every rebalance.
 *   <li>A task is stalled when its oldest pending message has waited longer than {@code stallAge} (twice the health
 *       check's limit) although the task is RUNNING here: for example a producer that no longer sends. It is restarted
 *       at once; its unacknowledged messages are delivered again to the restarted task.
 *   <li>Restarts of the same connector or task back off: the first at once, then after 10 s, doubling to 5 minutes; the
 *       delay starts again from 10 s once the connector or task has been fine for a minute.
 *   <li>PAUSED and STOPPED are an operator's decision: logged, never undone.
 * </ul>
 *
 * Every restart is logged with the state, the reason and the failure trace's first line, and counted.
 */
final class ConnectorSupervisor {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectorSupervisor.class);
    private static final Duration FIRST_BACKOFF = Duration.ofSeconds(10);
    private static final Duration LONGEST_BACKOFF = Duration.ofMinutes(5);
    private static final Duration FINE_BEFORE_RESET = Duration.ofMinutes(1);
    private static final String CONNECTOR = "connector";
    private static final Set<String> OPERATOR_STATES = Set.of("PAUSED", "STOPPED");

    /** What the supervisor reads and does; the Connect REST API and JMX in production. */
    interface Target {
        Optional<ConnectorStatus> status();

        Map<Integer, TaskProgress> progress();

        void register();

        void restartConnectorAndTasks();

        void restartTask(int task);
    }

    private final String connectorName;
    private final int expectedTasks;
    private final Duration stallAge;
    private final Target target;
    private final Clock clock;
    private final Map<String, Trouble> troubles = new HashMap<>();
    private final Map<String, Backoff> backoffs = new HashMap<>();
    private String operatorState;
    private long restarts;

    ConnectorSupervisor(String connectorName, int expectedTasks, Duration stallAge, Target target, Clock clock) {
        this.connectorName = requireNonNull(connectorName, "connectorName is null");
        this.expectedTasks = expectedTasks;
        this.stallAge = requireNonNull(stallAge, "stallAge is null");
        this.target = requireNonNull(target, "target is null");
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** One round: reads the status and the local progress, restarts what has been wrong for long enough. */
    synchronized void check() {
        Instant now = clock.instant();
        Optional<ConnectorStatus> status = target.status();
        if (status.isEmpty()) {
            LOG.warn("Connector {} is not registered; registering it again", connectorName);
            target.register();
            return;
        }
        ConnectorStatus current = status.get();
        if (OPERATOR_STATES.contains(current.state())) {
            if (!current.state().equals(operatorState)) {
                LOG.warn(
                        "Connector {} is {} (an operator's request); not restarting it. Resume it with PUT"
                                + " /connectors/{}/resume",
                        connectorName,
                        current.state(),
                        connectorName);
            }
            operatorState = current.state();
            troubles.clear();
            return;
        }
        operatorState = null;
        Map<String, Trouble> seen = new HashMap<>();
        if (!current.state().equals(ConnectorStatus.RUNNING) || current.tasks().size() != expectedTasks) {
            seen.put(
                    CONNECTOR,
                    new Trouble(
                            "connector " + current.state() + " with "
                                    + current.tasks().size() + " of " + expectedTasks + " task(s)",
                            current.trace(),
                            false));
        } else {
            Map<Integer, TaskProgress> progress = target.progress();
            for (ConnectorStatus.TaskStatus task : current.tasks()) {
                if (!task.running()) {
                    seen.put(
                            taskKey(task.id()),
                            new Trouble("task " + task.id() + " " + task.state(), task.trace(), false));
                    continue;
                }
                TaskProgress taskProgress = progress.get(task.id());
                if (taskProgress != null && taskProgress.oldestPendingAge().compareTo(stallAge) > 0) {
                    seen.put(
                            taskKey(task.id()),
                            new Trouble(
                                    "task " + task.id() + " RUNNING but stalled: " + taskProgress.pending()
                                            + " message(s) pending, the oldest for "
                                            + taskProgress.oldestPendingAge().toSeconds() + " s",
                                    Optional.empty(),
                                    true));
                }
            }
        }
        for (Map.Entry<String, Trouble> entry : seen.entrySet()) {
            Trouble previous = troubles.get(entry.getKey());
            Trouble trouble = entry.getValue().since(previous == null ? now : previous.since());
            troubles.put(entry.getKey(), trouble);
            // Seen by an earlier check too, or a stall (which measured its own time): act.
            if (previous != null || trouble.stalled()) {
                restart(entry.getKey(), trouble, now);
            }
        }
        Set<String> recovered = new HashSet<>(troubles.keySet());
        recovered.removeAll(seen.keySet());
        for (String key : recovered) {
            Trouble trouble = troubles.remove(key);
            LOG.info("Connector {}: {} recovered", connectorName, key.equals(CONNECTOR) ? "connector" : key);
            if (trouble != null) {
                backoffs.computeIfPresent(key, (ignored, backoff) -> backoff.fineSince(now));
            }
        }
        backoffs.entrySet()
                .removeIf(entry -> !seen.containsKey(entry.getKey())
                        && entry.getValue().fineSince() != null
                        && !entry.getValue().fineSince().plus(FINE_BEFORE_RESET).isAfter(now));
    }

    /** Restarts performed since this supervisor was created. */
    synchronized long restarts() {
        return restarts;
    }

    private void restart(String key, Trouble trouble, Instant now) {
        Backoff backoff = backoffs.get(key);
        if (backoff != null && backoff.notBefore().isAfter(now)) {
            return;
        }
        Duration next = backoff == null ? FIRST_BACKOFF : min(backoff.delay().multipliedBy(2), LONGEST_BACKOFF);
        backoffs.put(key, new Backoff(next, now.plus(next), null));
        restarts++;
        LOG.error(
                "Connector {}: {} for {} s; restarting {} (restart {} of this worker; the next one of it not before {}"
                        + " s). Cause: {}",
                connectorName,
                trouble.description(),
                Duration.between(trouble.since(), now).toSeconds(),
                key.equals(CONNECTOR) ? "the connector and its tasks" : key,
                restarts,
                next.toSeconds(),
                trouble.trace().map(ConnectorSupervisor::firstLine).orElse("none reported"));
        try {
            if (key.equals(CONNECTOR)) {
                target.restartConnectorAndTasks();
            } else {
                target.restartTask(Integer.parseInt(key.substring("task ".length())));
            }
        } catch (RuntimeException e) {
            LOG.warn("Connector {}: restarting {} failed; trying again later: {}", connectorName, key, e.getMessage());
        }
    }

    private static String taskKey(int task) {
        return "task " + task;
    }

    private static Duration min(Duration first, Duration second) {
        return first.compareTo(second) <= 0 ? first : second;
    }

    private static String firstLine(String trace) {
        int end = trace.indexOf('\n');
        return end < 0 ? trace : trace.substring(0, end);
    }

    private record Trouble(String description, Optional<String> trace, boolean stalled, Instant since) {
        Trouble(String description, Optional<String> trace, boolean stalled) {
            this(description, trace, stalled, Instant.EPOCH);
        }

        Trouble since(Instant first) {
            return new Trouble(description, trace, stalled, first);
        }
    }

    private record Backoff(Duration delay, Instant notBefore, Instant fineSince) {
        Backoff fineSince(Instant now) {
            return new Backoff(delay, notBefore, now);
        }
    }
}
