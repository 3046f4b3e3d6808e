package io.fleetlake.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class InFlightWindowTest {
    @Test
    void publishingWaitsWhileTheWindowIsFull() throws Exception {
        InFlightWindow window = new InFlightWindow(2);
        window.enter();
        window.enter();
        AtomicReference<Thread> waiting = new AtomicReference<>();

        CompletableFuture<Void> third = CompletableFuture.runAsync(() -> {
            waiting.set(Thread.currentThread());
            try {
                window.enter();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(5))
                .until(() -> waiting.get() != null && waiting.get().getState() == Thread.State.WAITING);
        assertThat(third).isNotDone();

        window.acknowledged();
        third.get();
        assertThat(window.counts()).isEqualTo(new PublishCounts(3, 1, 0));
    }

    @Test
    void countsOutcomesAndWaitsUntilEmpty() throws InterruptedException {
        InFlightWindow window = new InFlightWindow(10);
        window.enter();
        window.enter();
        window.enter();
        window.acknowledged();
        window.failed();

        assertThat(window.counts()).isEqualTo(new PublishCounts(3, 1, 1));
        assertThat(window.counts().inFlight()).isEqualTo(1);
        assertThat(window.awaitEmpty(Duration.ofMillis(50))).isFalse();

        window.acknowledged();
        assertThat(window.awaitEmpty(Duration.ofMillis(50))).isTrue();
        assertThat(window.counts()).isEqualTo(new PublishCounts(3, 2, 1));
        assertThat(window.counts().since(new PublishCounts(1, 1, 0))).isEqualTo(new PublishCounts(2, 1, 1));
    }
}
