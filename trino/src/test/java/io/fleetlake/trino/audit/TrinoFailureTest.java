package io.fleetlake.trino.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.trino.audit.TrinoFailure.Kind;
import org.junit.jupiter.api.Test;

class TrinoFailureTest {
    @Test
    void expiredSnapshot() {
        TrinoFailure failure = TrinoFailure.classify(RecordedTrinoErrors.expiredSnapshot());

        assertThat(failure.kind()).isEqualTo(Kind.SNAPSHOT_MISSING);
        assertThat(failure.detail()).isEqualTo("123");
        assertThat(failure.trinoMessage()).isEqualTo("Iceberg snapshot ID does not exists: 123");
    }

    @Test
    void unknownTag() {
        TrinoFailure failure = TrinoFailure.classify(RecordedTrinoErrors.unknownTag());

        assertThat(failure.kind()).isEqualTo(Kind.REFERENCE_MISSING);
        assertThat(failure.detail()).isEqualTo("audit-x");
    }

    @Test
    void instantBeforeHistory() {
        TrinoFailure failure = TrinoFailure.classify(RecordedTrinoErrors.beforeHistory());

        assertThat(failure.kind()).isEqualTo(Kind.NO_HISTORY_BEFORE);
        assertThat(failure.detail()).isEqualTo("2026-11-28T14:05:00Z");
    }

    @Test
    void missingTableOrSchema() {
        TrinoFailure table = TrinoFailure.classify(RecordedTrinoErrors.tableMissing());
        TrinoFailure schema = TrinoFailure.classify(RecordedTrinoErrors.schemaMissing());

        assertThat(table.kind()).isEqualTo(Kind.TABLE_MISSING);
        assertThat(table.detail()).isEqualTo("iceberg.fleet.nope");
        assertThat(schema.kind()).isEqualTo(Kind.TABLE_MISSING);
        assertThat(schema.detail()).isEqualTo("schema nope");
    }

    @Test
    void catalogDownReportsTheRootCause() {
        TrinoFailure failure = TrinoFailure.classify(RecordedTrinoErrors.catalogDown());

        assertThat(failure.kind()).isEqualTo(Kind.CATALOG_UNREACHABLE);
        assertThat(failure.detail()).isEqualTo("Connect to http://127.0.0.1:28981 failed: Connection refused");
    }

    @Test
    void trinoUnreachable() {
        TrinoFailure refused = TrinoFailure.classify(RecordedTrinoErrors.connectionRefused());
        TrinoFailure unknownHost = TrinoFailure.classify(RecordedTrinoErrors.unknownHost());

        assertThat(refused.kind()).isEqualTo(Kind.UNREACHABLE);
        assertThat(refused.detail()).isEqualTo("ConnectException: Failed to connect to /127.0.0.1:28999");
        assertThat(unknownHost.kind()).isEqualTo(Kind.UNREACHABLE);
        assertThat(unknownHost.detail()).contains("UnknownHostException", "no-such-host.invalid");
    }

    @Test
    void trinoStarting() {
        TrinoFailure failure = TrinoFailure.classify(RecordedTrinoErrors.starting());

        assertThat(failure.kind()).isEqualTo(Kind.STARTING);
    }

    @Test
    void otherFailuresKeepTrinosMessage() {
        TrinoFailure parameters = TrinoFailure.classify(RecordedTrinoErrors.parameterInTimeTravel());
        TrinoFailure integerVersion = TrinoFailure.classify(RecordedTrinoErrors.integerVersion());

        assertThat(parameters.kind()).isEqualTo(Kind.OTHER);
        assertThat(parameters.detail()).isEqualTo("line 1:1: Incorrect number of parameters: expected 0 but found 1");
        assertThat(integerVersion.kind()).isEqualTo(Kind.OTHER);
        assertThat(integerVersion.detail()).isEqualTo("Unsupported type for table version: integer");
    }
}
