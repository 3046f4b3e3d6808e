package io.fleetlake.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fleetlake.operations.status.ComponentStatus;
import io.fleetlake.stack.component.Component;
import io.fleetlake.stack.supervision.SupervisionPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedStackTest {
    private final List<String> events = new CopyOnWriteArrayList<>();

    @Test
    void startsDependenciesFirstAndStopsInReverse() {
        EmbeddedStack stack = new EmbeddedStack(
                List.of(
                        new FakeComponent("pipeline", Set.of("kafka", "catalog")),
                        new FakeComponent("catalog", Set.of("s3")),
                        new FakeComponent("s3", Set.of()),
                        new FakeComponent("kafka", Set.of())),
                Duration.ofSeconds(5));

        stack.start();

        assertThat(events).containsSubsequence("start s3", "start catalog", "start pipeline");
        assertThat(events).containsSubsequence("start kafka", "start pipeline");
        events.clear();
        stack.close();
        assertThat(events).hasSize(4);
        assertThat(events.get(0)).isEqualTo("stop pipeline");
        assertThat(events).containsSubsequence("stop catalog", "stop s3");
    }

    @Test
    void failedComponentStopsWhatAlreadyStartedAndNamesTheCulprit() {
        FakeComponent broken = new FakeComponent("catalog", Set.of("s3"));
        broken.failure = Optional.of("catalog exited with code 1; last lines: bad s3 endpoint");
        EmbeddedStack stack = new EmbeddedStack(
                List.of(new FakeComponent("s3", Set.of()), broken, new FakeComponent("trino", Set.of("catalog"))),
                Duration.ofSeconds(5));

        assertThatThrownBy(stack::start)
                .isInstanceOf(EmbeddedStack.StackException.class)
                .hasMessageContaining("bad s3 endpoint");
        assertThat(events).contains("stop s3", "stop catalog").doesNotContain("start trino");
    }

    @Test
    void componentThatNeverBecomesHealthyTimesOut() {
        FakeComponent slow = new FakeComponent("trino", Set.of());
        slow.healthy = false;
        EmbeddedStack stack = new EmbeddedStack(List.of(slow), Duration.ofMillis(600));

        assertThatThrownBy(stack::start)
                .hasMessageContaining("trino did not become healthy within 0 s")
                .hasMessageContaining("see /logs/trino.log");
        assertThat(events).containsExactly("start trino", "stop trino");
    }

    @Test
    void stopDuringAStartReachesTheStartingComponent() throws Exception {
        CountDownLatch starting = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        FakeComponent slow = new FakeComponent("trino", Set.of()) {
            @Override
            public void start() {
                super.start();
                starting.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        EmbeddedStack stack = new EmbeddedStack(List.of(slow), Duration.ofSeconds(5));
        Thread starter =
                new Thread(() -> assertThatThrownBy(stack::start).isInstanceOf(EmbeddedStack.StackException.class));
        starter.start();
        starting.await();

        stack.close();
        release.countDown();
        starter.join();

        assertThat(events).contains("stop trino");
        assertThat(slow.started).as("not left running").isFalse();
    }

    @Test
    void rejectsUnknownDependencyAndCycles() {
        assertThatThrownBy(() -> new EmbeddedStack(List.of(new FakeComponent("a", Set.of("b"))), Duration.ofSeconds(1)))
                .hasMessage("a depends on b, which is not part of the stack");
        assertThatThrownBy(() -> new EmbeddedStack(
                        List.of(new FakeComponent("a", Set.of("b")), new FakeComponent("b", Set.of("a"))),
                        Duration.ofSeconds(1)))
                .hasMessageContaining("cycle");
    }

    @Test
    void restartStopsAndStartsOneComponent() {
        EmbeddedStack stack = new EmbeddedStack(
                List.of(new FakeComponent("kafka", Set.of()), new FakeComponent("connect", Set.of("kafka"))),
                Duration.ofSeconds(5));
        stack.start();
        events.clear();

        stack.restart("connect");

        assertThat(events).containsExactly("stop connect", "start connect");
        stack.close();
    }

    @Test
    void optionalComponentThatDoesNotStartLeavesTheStackRunningAndIsRetried() {
        FakeComponent kafka = new FakeComponent("kafka", Set.of());
        FakeComponent trino = new FakeComponent("trino", Set.of("kafka"));
        trino.healthy = false;
        EmbeddedStack stack = new EmbeddedStack(
                List.of(trino, kafka),
                Set.of("trino"),
                Optional.empty(),
                Duration.ofMillis(600),
                new SupervisionPolicy(Duration.ofMillis(100), Duration.ofMillis(200), 0, Duration.ofMinutes(1)),
                statuses -> {});

        stack.start();

        assertThat(kafka.isHealthy()).isTrue();
        assertThat(events).containsSubsequence("start kafka", "start trino");
        assertThat(stack.statuses())
                .filteredOn(status -> status.name().equals("trino"))
                .singleElement()
                .satisfies(status -> {
                    assertThat(status.name()).isEqualTo("trino");
                    assertThat(status.state()).isEqualTo(ComponentStatus.State.STARTING);
                    assertThat(status.lastFailure()).hasValueSatisfying(failure -> assertThat(failure)
                            .contains("trino did not become healthy"));
                });
        trino.healthy = true;
        await().atMost(Duration.ofSeconds(10)).until(() -> stack.statuses().stream()
                .anyMatch(status -> status.name().equals("trino") && status.state() == ComponentStatus.State.RUNNING));
        stack.close();
        assertThat(events).contains("stop trino", "stop kafka");
    }

    @Test
    void requiredComponentsStartBeforeAnyOptionalOne() {
        EmbeddedStack stack = new EmbeddedStack(
                List.of(
                        new FakeComponent("dashboard", Set.of()),
                        new FakeComponent("kafka", Set.of()),
                        new FakeComponent("pipeline", Set.of("kafka"))),
                Set.of("dashboard"),
                Optional.empty(),
                Duration.ofSeconds(5),
                SupervisionPolicy.defaults(),
                statuses -> {});

        stack.start();

        assertThat(events).containsSubsequence("start pipeline", "start dashboard");
        stack.close();
    }

    @Test
    void aRequiredComponentMayNotDependOnAnOptionalOne() {
        assertThatThrownBy(() -> new EmbeddedStack(
                        List.of(new FakeComponent("trino", Set.of()), new FakeComponent("pipeline", Set.of("trino"))),
                        Set.of("trino"),
                        Optional.empty(),
                        Duration.ofSeconds(1),
                        SupervisionPolicy.defaults(),
                        statuses -> {}))
                .hasMessage("pipeline is required but depends on trino, which the stack may run without");
    }

    @Test
    void oneLauncherAtATimeRunsTheStackOfADataFolder(@TempDir Path dataDirectory) {
        Path lock = LauncherLock.location(dataDirectory);
        EmbeddedStack first = new EmbeddedStack(
                List.of(new FakeComponent("kafka", Set.of())),
                Set.of(),
                Optional.of(lock),
                Duration.ofSeconds(5),
                SupervisionPolicy.defaults(),
                statuses -> {});
        EmbeddedStack second = new EmbeddedStack(
                List.of(new FakeComponent("redis", Set.of())),
                Set.of(),
                Optional.of(lock),
                Duration.ofSeconds(5),
                SupervisionPolicy.defaults(),
                statuses -> {});
        first.start();

        assertThatThrownBy(second::start)
                .isInstanceOf(EmbeddedStack.StackException.class)
                .hasMessageContaining(
                        "Another launcher (pid " + ProcessHandle.current().pid() + ")")
                .hasMessageContaining("stop it first");
        assertThat(events).doesNotContain("start redis");

        first.close();
        second.start();
        assertThat(events).contains("start redis");
        second.close();
    }

    private class FakeComponent implements Component {
        private final String name;
        private final Set<String> dependencies;
        private volatile boolean started;
        private volatile boolean healthy = true;
        private volatile Optional<String> failure = Optional.empty();

        FakeComponent(String name, Set<String> dependencies) {
            this.name = name;
            this.dependencies = dependencies;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Set<String> dependencies() {
            return dependencies;
        }

        @Override
        public void start() {
            events.add("start " + name);
            started = true;
        }

        @Override
        public boolean isHealthy() {
            return started && healthy && failure.isEmpty();
        }

        @Override
        public Optional<String> failure() {
            return failure;
        }

        @Override
        public String endpoint() {
            return "";
        }

        @Override
        public Optional<Path> logFile() {
            return Optional.of(Path.of("/logs", name + ".log"));
        }

        @Override
        public void stop() {
            events.add("stop " + name);
            started = false;
        }
    }
}
