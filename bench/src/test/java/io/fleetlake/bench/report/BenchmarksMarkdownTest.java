package io.fleetlake.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchmarksMarkdownTest {
    @Test
    void createsTheFileWithItsHeaderThenAppendsTheSection(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("BENCHMARKS.md");

        BenchmarksMarkdown.append(file, ResultsFixture.results());

        String text = Files.readString(file);
        assertThat(text).startsWith(BenchmarksMarkdown.FILE_HEADER);
        assertThat(text).contains("\n## fleet bench, 2026-11-29 21:30 UTC\n");
        assertThat(text)
                .contains("Machine: 2 cores, 24.0 GiB memory, OpenJDK 64-Bit Server VM 17.0.15, Linux 6.1 amd64."
                        + " Load average (1/5/15 min) at the start 0.50 0.40 0.30, at the end 1.00 0.80 0.60.");
        assertThat(text).contains("Settings: `mode` quick, `records` 1,000.");
        assertThat(text).contains(ResultTable.markdown(ResultsFixture.metrics()));
        assertThat(text).contains("| Issue 13 figure | Target | Measured | Verdict |");
        assertThat(text)
                .contains("**Where the time goes**\n\n| hop | p50 ms | p95 ms |\n| --- | --- | --- |\n"
                        + "| device -> received | 12 | 40 |\n| received -> Kafka | 250 | - |\n\n"
                        + "- Send time = event time.\n");
        assertThat(text).contains("**Rate per tenth**\n\nNot measured: the backlog | was too small\n");
        assertThat(text).contains("- Warm-up excluded.\n");
        assertThat(text).contains("```\n1,234 execution samples\n  50.0 %  Parquet writing\n```\n");
    }

    @Test
    void keepsWhatTheFileHeldAndAppendsAtTheEnd(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("BENCHMARKS.md");
        String existing = "# Benchmarks\n\nHand-written introduction.\n";
        Files.writeString(file, existing);

        BenchmarksMarkdown.append(file, ResultsFixture.results());
        BenchmarksMarkdown.append(file, ResultsFixture.results());

        String text = Files.readString(file);
        assertThat(text).startsWith(existing);
        assertThat(text.split("\n## fleet bench, ", -1)).hasSize(3);
        assertThat(text).endsWith("```\n");
    }

    @Test
    void leavesOutTheProfileWhenThereIsNone() {
        BenchResults results = ResultsFixture.results();
        BenchResults withoutProfile = new BenchResults(
                results.machine(),
                results.settings(),
                results.metrics(),
                results.targets(),
                results.breakdowns(),
                results.notes(),
                List.of(),
                results.loadAverageAtEnd());

        assertThat(BenchmarksMarkdown.section(withoutProfile)).doesNotContain("Where the pipeline's time goes");
    }
}
