package io.fleetlake.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class MachineDescriptionTest {
    @Test
    void describesThisMachine() {
        MachineDescription machine = MachineDescription.current();

        assertThat(machine.cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(machine.memoryBytes()).isPositive();
        assertThat(machine.memory()).endsWith(" GiB");
        assertThat(machine.jdk()).contains(System.getProperty("java.runtime.version"));
        assertThat(machine.operatingSystem()).startsWith(System.getProperty("os.name"));
        assertThat(machine.date()).isBeforeOrEqualTo(Instant.now());
        assertThat(machine.loadAverage()).isNotBlank();
    }

    @Test
    void formatsMemoryInGibibytes() {
        MachineDescription machine =
                new MachineDescription(2, 3L * 1024 * 1024 * 1024 / 2, "jdk", "os", Instant.EPOCH, "0");

        assertThat(machine.memory()).isEqualTo("1.5 GiB");
        assertThat(new MachineDescription(2, -1, "jdk", "os", Instant.EPOCH, "0").memory())
                .isEqualTo("unknown");
    }

    @Test
    void loadAverageHasThreeFieldsOnLinux() {
        MachineDescription.currentLoadAverage()
                .ifPresent(average -> assertThat(average.split(" ")).hasSize(3));
    }
}
