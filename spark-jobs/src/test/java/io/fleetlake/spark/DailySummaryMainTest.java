package io.fleetlake.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command line up to the point where Spark would start; the job itself is tested in {@link DailySummaryJobTest}. */
class DailySummaryMainTest {
    @Test
    void helpListsTheOptions() {
        StringWriter out = new StringWriter();
        CommandLine commandLine = new CommandLine(new DailySummaryMain()).setOut(new PrintWriter(out));

        assertThat(commandLine.execute("--help")).isZero();
        assertThat(out.toString()).contains("--date").contains("--config").contains("--set");
    }

    @Test
    void anInvalidConfigurationFailsBeforeSparkStarts() {
        assertThat(new CommandLine(new DailySummaryMain()).execute("--set", "spark.master=yarn"))
                .isEqualTo(1);
    }

    @Test
    void anInvalidDateIsAUsageError() {
        CommandLine commandLine = new CommandLine(new DailySummaryMain()).setErr(new PrintWriter(new StringWriter()));

        assertThat(commandLine.execute("--date", "28/11/2026")).isEqualTo(2);
    }
}
