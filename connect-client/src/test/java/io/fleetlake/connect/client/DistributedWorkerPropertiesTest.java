package io.fleetlake.connect.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import org.junit.jupiter.api.Test;

class DistributedWorkerPropertiesTest {
    @Test
    void internalTopicsAreNamedAfterTheGroup() {
        assertThat(DistributedWorkerProperties.of("127.0.0.1:9092", "fleet-ingest", "127.0.0.1", 8083))
                .containsExactly(
                        entry("bootstrap.servers", "127.0.0.1:9092"),
                        entry("group.id", "fleet-ingest"),
                        entry("listeners", "http://127.0.0.1:8083"),
                        entry("config.storage.topic", "fleet-ingest-configs"),
                        entry("offset.storage.topic", "fleet-ingest-offsets"),
                        entry("status.storage.topic", "fleet-ingest-status"),
                        entry("config.storage.replication.factor", "1"),
                        entry("offset.storage.replication.factor", "1"),
                        entry("status.storage.replication.factor", "1"));
    }
}
