package io.fleetlake.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The names are a contract with every reader of the Flink REST API (dashboard, alerts): changing one breaks them. */
class PipelineMetricNamesTest {
    @Test
    void jobAndCounterNamesStayStable() {
        assertThat(PipelineMetricNames.JOB_NAME).isEqualTo("fleet-pipeline");
        assertThat(PipelineMetricNames.RECORDS_READ).isEqualTo("recordsRead");
        assertThat(PipelineMetricNames.RECORDS_ACCEPTED).isEqualTo("recordsAccepted");
        assertThat(PipelineMetricNames.RECORDS_REJECTED).isEqualTo("recordsRejected");
        assertThat(PipelineMetricNames.REJECTION_REASON_GROUP).isEqualTo("rejectionReason");
        assertThat(PipelineMetricNames.RESENDS_DEDUPLICATED).isEqualTo("resendsDeduplicated");
        assertThat(PipelineMetricNames.JUMP_BASELINE_RESETS).isEqualTo("jumpBaselineResets");
        assertThat(PipelineMetricNames.ROUTE_POLLS_SUCCEEDED).isEqualTo("routePollsSucceeded");
        assertThat(PipelineMetricNames.ROUTE_POLLS_FAILED).isEqualTo("routePollsFailed");
        assertThat(PipelineMetricNames.ROUTE_UPDATES).isEqualTo("routeUpdates");
        assertThat(PipelineMetricNames.STALE_ENRICHMENTS).isEqualTo("staleEnrichments");
        assertThat(PipelineMetricNames.REDIS_UPDATES_APPLIED).isEqualTo("redisUpdatesApplied");
        assertThat(PipelineMetricNames.REDIS_UPDATES_IGNORED).isEqualTo("redisUpdatesIgnored");
        assertThat(PipelineMetricNames.REDIS_WRITE_FAILURES).isEqualTo("redisWriteFailures");
        assertThat(PipelineMetricNames.REDIS_PENDING_VEHICLES).isEqualTo("redisPendingVehicles");
        assertThat(PipelineMetricNames.NUM_RESTARTS).isEqualTo("numRestarts");
        assertThat(PipelineMetricNames.ROUTE_UPDATES_FAILED).isEqualTo("routeUpdatesFailed");
        assertThat(PipelineMetricNames.VEHICLES_EXPIRED).isEqualTo("vehiclesExpired");
        assertThat(PipelineMetricNames.MINUTE_ROWS_FAILED).isEqualTo("minuteRowsFailed");
        assertThat(PipelineMetricNames.DEAD_LETTERS_TRUNCATED).isEqualTo("deadLettersTruncated");
    }
}
