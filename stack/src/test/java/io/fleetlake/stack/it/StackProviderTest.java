package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.stack.EmbeddedServers;
import io.fleetlake.stack.EmbeddedStack.StackException;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.containers.ContainerServers;
import io.fleetlake.stack.containers.DockerEngine;
import io.fleetlake.stack.process.FleetHome;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class StackProviderTest {
    private static final StackSettings SETTINGS =
            StackSettings.from(ConfigSource.of(Map.of(StackSettings.FREE_PORTS, "true")), Path.of("target", "data"));
    private static final FleetHome HOME = new FleetHome(Path.of("target", "no-checkout"), "0");

    @Test
    void theEmbeddedStackIsTheDefault() {
        assertThat(StackProvider.named("")).isEqualTo(StackProvider.EMBEDDED);
        assertThat(StackProvider.named("embedded")).isEqualTo(StackProvider.EMBEDDED);
        assertThat(StackProvider.named(" Containers ")).isEqualTo(StackProvider.CONTAINERS);
        assertThatThrownBy(() -> StackProvider.named("docker"))
                .hasMessage("fleet.it.stack = 'docker' is not a stack provider: use one of embedded, containers");
    }

    @Test
    void theEmbeddedProviderNeverAsksForDocker() {
        AtomicInteger asked = new AtomicInteger();
        Supplier<DockerEngine> docker = () -> {
            asked.incrementAndGet();
            return () -> Optional.of("no engine");
        };

        StackProvider.EMBEDDED.requireAvailable(docker);

        assertThat(asked).hasValue(0);
        assertThat(StackProvider.EMBEDDED.servers(SETTINGS, HOME)).isInstanceOf(EmbeddedServers.class);
    }

    @Test
    void containersWithoutADockerEngineFailAtOnceAndSayWhatToDo() {
        assertThatThrownBy(() -> StackProvider.CONTAINERS.requireAvailable(
                        () -> () -> Optional.of("Testcontainers: no socket; DOCKER_HOST is not set")))
                .isInstanceOf(StackException.class)
                .hasMessage("-Pcontainers needs a Docker engine; none is reachable (Testcontainers: no socket;"
                        + " DOCKER_HOST is not set). Run without -Pcontainers to use the embedded stack.");
    }

    @Test
    void containersWithADockerEngineGetTheContainerServers() {
        StackProvider.CONTAINERS.requireAvailable(() -> Optional::empty);

        assertThat(StackProvider.CONTAINERS.servers(SETTINGS, HOME)).isInstanceOf(ContainerServers.class);
    }
}
