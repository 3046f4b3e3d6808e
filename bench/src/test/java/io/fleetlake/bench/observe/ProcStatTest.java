package io.fleetlake.bench.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.bench.observe.ProcStat.MachineTime;
import io.fleetlake.bench.observe.ProcStat.ProcessTime;
import io.fleetlake.bench.observe.ProcStat.ThreadTime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcStatTest {
    /** A real line of /proc/<pid>/stat, with a command name that holds a space and a parenthesis. */
    static String statLine(long pid, String name, long utime, long stime, long start) {
        return pid + " (" + name + ") S 1 " + pid + " " + pid + " 0 -1 4194560 30563 0 12 0 " + utime + " " + stime
                + " 0 0 20 0 57 0 " + start + " 4150685696 345362 18446744073709551615 1 1 0 0 0 0 0 4096 16796879 0"
                + " 0 0 17 1 0 0 0 0 0\n";
    }

    @Test
    void readsUserPlusSystemTimeAndStartOfAProcessWhateverItsName() {
        ProcessTime time = ProcStat.parseProcessTime(statLine(4242, "java (x) y", 1_234, 56, 98_765));

        assertThat(time).isEqualTo(new ProcessTime(4242, 1_290, 98_765));
    }

    @Test
    void readsAThreadWithItsName() {
        ThreadTime thread = ProcStat.parseThreadTime(statLine(4250, "C2 CompilerThre", 300, 20, 5));

        assertThat(thread).isEqualTo(new ThreadTime(4250, "C2 CompilerThre", 320));
    }

    @Test
    void machineBusyTimeCountsEverythingButIdleAndIoWait() {
        MachineTime time =
                ProcStat.parseMachineTime("cpu  100 2 30 4000 50 6 7 8 0 0\ncpu0 50 1 15 2000 25 3 3 4 0 0\nintr 1\n");

        assertThat(time).isEqualTo(new MachineTime(100 + 2 + 30 + 6 + 7 + 8, 4000 + 50));
        assertThatThrownBy(() -> ProcStat.parseMachineTime("intr 1\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Not the cpu line");
    }

    @Test
    void readsAProcTreeAndReportsAGoneProcessAsAbsent(@TempDir Path root) throws IOException {
        Files.writeString(root.resolve("stat"), "cpu  1 0 1 10 0 0 0 0 0 0\n");
        Path process = Files.createDirectories(root.resolve("77"));
        Files.writeString(process.resolve("stat"), statLine(77, "java", 10, 5, 3));
        Files.createDirectories(process.resolve("task/77"));
        Files.createDirectories(process.resolve("task/78"));
        Files.writeString(process.resolve("task/77/stat"), statLine(77, "main", 4, 1, 3));
        Files.writeString(process.resolve("task/78/stat"), statLine(78, "GC Thread#0", 6, 4, 3));
        ProcStat proc = new ProcStat(root);

        assertThat(proc.available()).isTrue();
        assertThat(proc.process(77)).contains(new ProcessTime(77, 15, 3));
        assertThat(proc.process(78)).isEmpty();
        assertThat(proc.threads(77))
                .containsExactlyInAnyOrder(new ThreadTime(77, "main", 5), new ThreadTime(78, "GC Thread#0", 10));
        assertThat(proc.threads(99)).isEmpty();
        assertThat(proc.machine()).isEqualTo(new MachineTime(2, 10));
    }

    @Test
    void theMachinesOwnProcDescribesThisProcess() {
        ProcStat proc = ProcStat.system();

        assertThat(proc.available()).as("/proc of this Linux machine").isTrue();
        assertThat(proc.process(ProcessHandle.current().pid()))
                .hasValueSatisfying(time -> assertThat(time.ticks()).isPositive());
        assertThat(proc.threads(ProcessHandle.current().pid())).isNotEmpty();
    }
}
