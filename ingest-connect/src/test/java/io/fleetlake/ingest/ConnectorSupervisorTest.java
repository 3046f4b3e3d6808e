package io.fleetlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConnectorSupervisorTest {
    private static final Duration STALL = Duration.ofSeconds(120);
    private static final Duration INTERVAL = Duration.ofSeconds(10);

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final FakeTarget target = new FakeTarget();
    private final ConnectorSupervisor supervisor = new ConnectorSupervisor("mqtt-positions", 1, STALL, target, clock);

    @Test
    void runningConnectorIsLeftAlone() {
        target.status = Optional.of(status("RUNNING", "RUNNING"));

        checkTimes(5);

        assertThat(target.actions).isEmpty();
        assertThat(supervisor.restarts()).isZero();
    }

    @Test
    void unassignedConnectorIsRestartedWhenTwoChecksInARowSeeIt() {
        target.status = Optional.of(status("UNASSIGNED", "UNASSIGNED"));

        supervisor.check();
        assertThat(target.actions).as("a rebalance passes through UNASSIGNED").isEmpty();
        clock.advance(INTERVAL);
        supervisor.check();

        assertThat(target.actions).containsExactly("restart connector and tasks");
        assertThat(supervisor.restarts()).isEqualTo(1);
    }

    @Test
    void taskInAnyStateButRunningIsRestartedAlone() {
        target.status = Optional.of(status("RUNNING", "UNASSIGNED"));

        checkTimes(2);

        assertThat(target.actions).containsExactly("restart task 0");
    }

    @Test
    void restartsBackOffFromTenSecondsDoublingToFiveMinutes() {
        target.status = Optional.of(status("RUNNING", "FAILED"));
        List<Long> restartSeconds = new ArrayList<>();
        Instant start = clock.instant();
        for (int second = 0; second <= 700; second++) {
            int before = target.actions.size();
            supervisor.check();
            if (target.actions.size() > before) {
                restartSeconds.add(Duration.between(start, clock.instant()).toSeconds());
            }
            clock.advance(Duration.ofSeconds(1));
        }

        assertThat(restartSeconds).containsExactly(1L, 11L, 31L, 71L, 151L, 311L, 611L);
    }

    @Test
    void backoffStartsAgainOnceTheTaskWasFineForAMinute() {
        target.status = Optional.of(status("RUNNING", "FAILED"));
        checkTimes(2);
        clock.advance(Duration.ofSeconds(10));
        supervisor.check();
        assertThat(target.actions).hasSize(2);

        target.status = Optional.of(status("RUNNING", "RUNNING"));
        checkTimes(7);
        target.status = Optional.of(status("RUNNING", "FAILED"));
        checkTimes(2);

        assertThat(target.actions).hasSize(3);
    }

    @Test
    void runningTaskThatNoLongerMovesMessagesIsRestarted() {
        target.status = Optional.of(status("RUNNING", "RUNNING"));
        target.progress = Map.of(0, new TaskProgress(0, 10, 4, 0, 6, Duration.ofSeconds(119), true));
        supervisor.check();
        assertThat(target.actions).isEmpty();

        target.progress = Map.of(0, new TaskProgress(0, 10, 4, 0, 6, Duration.ofSeconds(121), true));
        supervisor.check();

        assertThat(target.actions).containsExactly("restart task 0");
    }

    @Test
    void missingConnectorIsRegisteredAgain() {
        target.status = Optional.empty();

        supervisor.check();

        assertThat(target.actions).containsExactly("register");
    }

    @Test
    void pausedConnectorIsAnOperatorsDecision() {
        target.status = Optional.of(status("PAUSED", "PAUSED"));

        checkTimes(5);

        assertThat(target.actions).isEmpty();
    }

    @Test
    void failedRestartIsTriedAgainAfterTheBackoff() {
        target.status = Optional.of(status("RUNNING", "FAILED"));
        target.failRestarts = true;

        checkTimes(2);
        target.failRestarts = false;
        checkTimes(1);

        assertThat(target.actions).containsExactly("restart task 0", "restart task 0");
    }

    private void checkTimes(int times) {
        for (int check = 0; check < times; check++) {
            supervisor.check();
            clock.advance(INTERVAL);
        }
    }

    private static ConnectorStatus status(String connector, String task) {
        return new ConnectorStatus(
                "mqtt-positions",
                connector,
                Optional.empty(),
                List.of(new ConnectorStatus.TaskStatus(0, task, Optional.of("trace of " + task))));
    }

    private static final class FakeTarget implements ConnectorSupervisor.Target {
        private Optional<ConnectorStatus> status = Optional.empty();
        private Map<Integer, TaskProgress> progress = new HashMap<>();
        private boolean failRestarts;
        private final List<String> actions = new ArrayList<>();

        @Override
        public Optional<ConnectorStatus> status() {
            return status;
        }

        @Override
        public Map<Integer, TaskProgress> progress() {
            return progress;
        }

        @Override
        public void register() {
            actions.add("register");
        }

        @Override
        public void restartConnectorAndTasks() {
            actions.add("restart connector and tasks");
            failIfAsked();
        }

        @Override
        public void restartTask(int task) {
            actions.add("restart task " + task);
            failIfAsked();
        }

        private void failIfAsked() {
            if (failRestarts) {
                throw new IllegalStateException("409 rebalance in progress");
            }
        }
    }
}
