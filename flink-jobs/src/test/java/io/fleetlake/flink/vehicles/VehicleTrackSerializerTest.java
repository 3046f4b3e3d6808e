package io.fleetlake.flink.vehicles;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.flink.TestRecords;
import io.fleetlake.flink.config.EnrichmentConfig;
import io.fleetlake.flink.enrichment.TestRoutes;
import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.validation.PositionValidator;
import java.time.Instant;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class VehicleTrackSerializerTest {
    private static final FixJudge JUDGE =
            new FixJudge(new PositionValidator(TestRecords.RULES), EnrichmentConfig.defaults());
    private static final Instant T0 = TestRecords.EVENT_TIME;
    private final VehicleTrackSerializer serializer = new VehicleTrackSerializer();

    @Test
    void roundTripKeepsEveryPartOfTheTrack() throws Exception {
        VehicleTrack track = track();

        VehicleTrack read = roundTrip(track);

        assertThat(read.accepted().size()).isEqualTo(track.accepted().size());
        for (int age = 0; age < track.accepted().size(); age++) {
            int original = track.accepted().entry(age);
            int copied = read.accepted().entry(age);
            assertThat(read.accepted().eventTime(copied))
                    .isEqualTo(track.accepted().eventTime(original));
            assertThat(read.accepted().fingerprint(copied))
                    .isEqualTo(track.accepted().fingerprint(original));
            assertThat(read.accepted().offset(copied))
                    .isEqualTo(track.accepted().offset(original));
        }
        assertThat(read.accepted().capacity()).isEqualTo(8);
        assertThat(read.baselineTime()).isEqualTo(track.baselineTime());
        assertThat(read.baselineLatitude()).isEqualTo(track.baselineLatitude());
        assertThat(read.hasRejectedJump()).isTrue();
        assertThat(read.route().route()).isEqualTo(TestRoutes.route());
        assertThat(read.routeFetchedAt()).isEqualTo(track.routeFetchedAt());
        assertThat(read.tracker()).isEqualTo(track.tracker());
        assertThat(read.lastActivity()).isEqualTo(track.lastActivity());
        assertThat(read.expiryTimer()).isEqualTo(track.expiryTimer());
    }

    @Test
    void copyIsDeepWhereTheTrackIsMutable() {
        VehicleTrack track = track();

        VehicleTrack copy = serializer.copy(track);
        IngestedPosition later = TestRecords.ingested(TestRecords.position("VH-0001", T0.plusSeconds(60)), 0, 9);
        JUDGE.apply(copy, later, JUDGE.judge(copy, later, 0));

        assertThat(track.accepted().find(later.position().eventTime())).isNegative();
        assertThat(track.baselineTime()).isEqualTo(T0.plusSeconds(20));
        assertThat(copy.baselineTime()).isEqualTo(later.position().eventTime());
        assertThat(copy.route()).as("the immutable route is shared").isSameAs(track.route());
    }

    @Test
    void snapshotRestoresACompatibleSerializer() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.snapshotConfiguration().writeSnapshot(out);
        VehicleTrackSerializer.Snapshot snapshot = new VehicleTrackSerializer.Snapshot();
        snapshot.readSnapshot(
                serializer.snapshotConfiguration().getCurrentVersion(),
                new DataInputDeserializer(out.getCopyOfBuffer()),
                getClass().getClassLoader());

        TypeSerializer<VehicleTrack> restored = snapshot.restoreSerializer();
        TypeSerializerSchemaCompatibility<VehicleTrack> compatibility =
                serializer.snapshotConfiguration().resolveSchemaCompatibility(snapshot);

        assertThat(restored).isEqualTo(serializer);
        assertThat(compatibility.isCompatibleAsIs()).isTrue();
    }

    private VehicleTrack track() {
        VehicleTrack track = new VehicleTrack(8);
        JUDGE.assignRoute(track, TestRoutes.route(), T0);
        long offset = 0;
        for (IngestedPosition fix : new IngestedPosition[] {
            TestRecords.ingested(TestRecords.at("VH-0001", T0, 40.40, -3.70), 0, offset++),
            TestRecords.ingested(TestRecords.at("VH-0001", T0.plusSeconds(20), 40.401, -3.70), 0, offset++),
            TestRecords.ingested(TestRecords.at("VH-0001", T0.plusSeconds(30), 41.3874, 2.1686), 0, offset++)
        }) {
            JUDGE.apply(track, fix, JUDGE.judge(track, fix, 0));
        }
        track.touch(12_345);
        track.expiryTimer(99_999);
        return track;
    }

    private VehicleTrack roundTrip(VehicleTrack track) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(track, out);
        return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }
}
