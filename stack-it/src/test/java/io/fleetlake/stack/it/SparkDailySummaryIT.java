package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.Tables;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import io.fleetlake.stack.process.FleetHome;
import io.fleetlake.stack.spark.DailySummaryLauncher;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Spark reads the same tables through the same REST catalog and S3 as the pipeline and Trino: the daily summary it
 * writes agrees with what Trino counts in the history, and rerunning the day replaces it instead of adding to it.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class SparkDailySummaryIT {
    private static final String SUMMARY = Tables.qualified("daily_summary");

    @Test
    void dailySummaryAgreesWithTheHistoryAndRerunsReplaceTheDay(RunningStack running) throws Exception {
        TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        String dayStart = today + " 00:00:00 UTC";
        String dayEnd = today.plusDays(1) + " 00:00:00 UTC";
        DailySummaryLauncher job = new DailySummaryLauncher(running.settings(), FleetHome.locate());

        assertThat(job.run(today)).as("exit code of the Spark job").isZero();

        List<String> expected = trino.query("SELECT"
                        + " (SELECT count(*) FROM " + Tables.qualified(Tables.POSITIONS)
                        + "  WHERE event_time >= TIMESTAMP '" + dayStart + "' AND event_time < TIMESTAMP '" + dayEnd
                        + "'),"
                        + " (SELECT count(*) FROM " + Tables.qualified(Tables.REJECTED_POSITIONS)
                        + "  WHERE vehicle_id IS NOT NULL AND rejected_at >= TIMESTAMP '" + dayStart
                        + "' AND rejected_at < TIMESTAMP '" + dayEnd + "'),"
                        + " (SELECT count(*) FROM (SELECT vehicle_id FROM " + Tables.qualified(Tables.POSITIONS)
                        + "  WHERE event_time >= TIMESTAMP '" + dayStart + "' AND event_time < TIMESTAMP '" + dayEnd
                        + "' UNION SELECT vehicle_id FROM " + Tables.qualified(Tables.REJECTED_POSITIONS)
                        + "  WHERE vehicle_id IS NOT NULL AND rejected_at >= TIMESTAMP '" + dayStart
                        + "' AND rejected_at < TIMESTAMP '" + dayEnd + "'))")
                .get(0);
        String summary = "SELECT sum(positions), sum(positions_rejected), count(*) FROM " + SUMMARY
                + " WHERE day = DATE '" + today + "'";
        assertThat(trino.query(summary).get(0))
                .as("positions, rejections and vehicles of the day, summarised by Spark vs counted by Trino")
                .containsExactlyElementsOf(expected);
        assertThat(Long.parseLong(expected.get(0)))
                .as("the other tests left positions of today")
                .isPositive();

        long snapshotsBefore = trino.snapshots("daily_summary").size();
        assertThat(job.run(today)).isZero();
        assertThat(trino.query(summary).get(0)).as("a rerun replaces the day").containsExactlyElementsOf(expected);
        assertThat(trino.snapshots("daily_summary")).hasSize((int) snapshotsBefore + 1);
    }
}
