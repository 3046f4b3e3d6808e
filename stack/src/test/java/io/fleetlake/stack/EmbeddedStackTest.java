package io.fleetlake.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.stack.component.Component;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

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
