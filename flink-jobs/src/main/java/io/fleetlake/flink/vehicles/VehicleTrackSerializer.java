package io.fleetlake.flink.vehicles;

import io.fleetlake.flink.enrichment.RouteGeometry;
import io.fleetlake.flink.enrichment.StatusTracker;
import io.fleetlake.flink.types.RecordSerializers;
import java.io.IOException;
import java.time.Instant;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Writes a {@link VehicleTrack} field by field (no reflection, no Kryo). The value starts with a format version, so a
 * later release can still read this format ({@link #FORMAT_VERSION}). The route is written as the planning API sent it
 * and measured again ({@link RouteGeometry#of}) when read: its geometry is derived data.
 *
 * <p>{@link #copy} is deep where the track is mutable (the de-duplication memory) and shares the immutable route and
 * status tracker; the heap state backend calls it at most once per vehicle and checkpoint (copy on write while a
 * checkpoint is written).
 */
public final class VehicleTrackSerializer extends TypeSerializer<VehicleTrack> {
    private static final long serialVersionUID = 1L;
    static final int FORMAT_VERSION = 1;

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<VehicleTrack> duplicate() {
        return this;
    }

    @Override
    public VehicleTrack createInstance() {
        return new VehicleTrack(1);
    }

    @Override
    public VehicleTrack copy(VehicleTrack from) {
        return from.copy();
    }

    @Override
    public VehicleTrack copy(VehicleTrack from, VehicleTrack reuse) {
        return from.copy();
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(VehicleTrack track, DataOutputView target) throws IOException {
        target.writeByte(FORMAT_VERSION);
        AcceptedFixes accepted = track.accepted;
        target.writeInt(accepted.capacity());
        target.writeInt(accepted.size());
        for (int age = accepted.size() - 1; age >= 0; age--) {
            int entry = accepted.entry(age);
            RecordSerializers.writeInstant(accepted.eventTime(entry), target);
            target.writeLong(accepted.fingerprint(entry));
            target.writeInt(accepted.partition(entry));
            target.writeLong(accepted.offset(entry));
        }
        writeFix(track.baselineTime, track.baselineLatitude, track.baselineLongitude, target);
        writeFix(track.rejectedTime, track.rejectedLatitude, track.rejectedLongitude, target);
        target.writeBoolean(track.route != null);
        if (track.route != null) {
            RecordSerializers.writeRoute(track.route.route(), target);
            RecordSerializers.writeInstant(track.routeFetchedAt, target);
        }
        StatusTracker tracker = track.tracker;
        StringValue.writeString(tracker.routeId(), target);
        target.writeInt(tracker.nextStopIndex());
        RecordSerializers.writeNullableInstant(tracker.slowSince(), target);
        target.writeInt(tracker.offRouteFixes());
        RecordSerializers.writeNullableInstant(tracker.lastEventTime(), target);
        target.writeLong(track.lastActivity);
        target.writeLong(track.expiryTimer);
    }

    @Override
    public VehicleTrack deserialize(DataInputView source) throws IOException {
        int version = source.readByte();
        if (version != FORMAT_VERSION) {
            throw new IOException("Vehicle state of format version " + version + " cannot be read by this release,"
                    + " which reads version " + FORMAT_VERSION + "; restore it with the release that wrote it");
        }
        AcceptedFixes accepted = new AcceptedFixes(source.readInt());
        int size = source.readInt();
        for (int i = 0; i < size; i++) {
            Instant eventTime = RecordSerializers.readInstant(source);
            accepted.add(eventTime, source.readLong(), source.readInt(), source.readLong());
        }
        VehicleTrack track = new VehicleTrack(accepted);
        if (source.readBoolean()) {
            track.baselineTime = RecordSerializers.readInstant(source);
            track.baselineLatitude = source.readDouble();
            track.baselineLongitude = source.readDouble();
        }
        if (source.readBoolean()) {
            track.rejectedTime = RecordSerializers.readInstant(source);
            track.rejectedLatitude = source.readDouble();
            track.rejectedLongitude = source.readDouble();
        }
        if (source.readBoolean()) {
            RouteGeometry route = RouteGeometry.of(RecordSerializers.readRoute(source));
            track.route(route, RecordSerializers.readInstant(source));
        }
        String routeId = StringValue.readString(source);
        int nextStopIndex = source.readInt();
        Instant slowSince = RecordSerializers.readNullableInstant(source);
        int offRouteFixes = source.readInt();
        Instant lastEventTime = RecordSerializers.readNullableInstant(source);
        track.tracker = new StatusTracker(routeId, nextStopIndex, slowSince, offRouteFixes, lastEventTime);
        track.lastActivity = source.readLong();
        track.expiryTimer = source.readLong();
        return track;
    }

    @Override
    public VehicleTrack deserialize(VehicleTrack reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    private static void writeFix(Instant time, double latitude, double longitude, DataOutputView target)
            throws IOException {
        target.writeBoolean(time != null);
        if (time != null) {
            RecordSerializers.writeInstant(time, target);
            target.writeDouble(latitude);
            target.writeDouble(longitude);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof VehicleTrackSerializer;
    }

    @Override
    public int hashCode() {
        return VehicleTrackSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<VehicleTrack> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Restores {@link VehicleTrackSerializer}; the format version is in every value. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<VehicleTrack> {
        public Snapshot() {
            super(VehicleTrackSerializer::new);
        }
    }
}
