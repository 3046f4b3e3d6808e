package io.fleetlake.flink.types;

import io.fleetlake.flink.records.IngestedPosition;
import io.fleetlake.flink.records.RawRecord;
import io.fleetlake.flink.records.RejectedRecord;
import io.fleetlake.flink.records.RoutePoll;
import io.fleetlake.flink.records.RouteUpdate;
import io.fleetlake.model.Position;
import io.fleetlake.model.RejectionReason;
import io.fleetlake.model.planning.PlannedRoute;
import io.fleetlake.model.planning.PlannedStop;
import io.fleetlake.model.planning.RoutePoint;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * The serializers of the records that cross a network edge of the pipeline (a raw record and its decoded position
 * between the source subtasks and the keyed vehicle operator, the rejections on their way to the dead-letter sinks, the
 * planning API's routes). Each is written field by field; null is marked per optional field.
 */
public final class RecordSerializers {
    public static final ValueTypeInfo<RawRecord> RAW_RECORD =
            new ValueTypeInfo<>(RawRecord.class, new RawRecordSerializer());
    public static final ValueTypeInfo<IngestedPosition> INGESTED_POSITION =
            new ValueTypeInfo<>(IngestedPosition.class, new IngestedPositionSerializer());
    public static final ValueTypeInfo<RejectedRecord> REJECTED_RECORD =
            new ValueTypeInfo<>(RejectedRecord.class, new RejectedRecordSerializer());
    public static final ValueTypeInfo<RouteUpdate> ROUTE_UPDATE =
            new ValueTypeInfo<>(RouteUpdate.class, new RouteUpdateSerializer());
    public static final ValueTypeInfo<RoutePoll> ROUTE_POLL =
            new ValueTypeInfo<>(RoutePoll.class, new RoutePollSerializer());

    private static final int ALTITUDE = 1;
    private static final int ACCURACY = 2;
    private static final int SATELLITES = 4;
    private static final int BATTERY = 8;

    private RecordSerializers() {}

    /** {@link RawRecord}. */
    public static final class RawRecordSerializer extends ImmutableValueSerializer<RawRecord> {
        private static final long serialVersionUID = 1L;

        @Override
        public void serialize(RawRecord record, DataOutputView target) throws IOException {
            writeRaw(record, target);
        }

        @Override
        public RawRecord deserialize(DataInputView source) throws IOException {
            return readRaw(source);
        }

        @Override
        public TypeSerializerSnapshot<RawRecord> snapshotConfiguration() {
            return new Snapshot();
        }

        /** Restores {@link RawRecordSerializer}. */
        public static final class Snapshot extends SimpleTypeSerializerSnapshot<RawRecord> {
            public Snapshot() {
                super(RawRecordSerializer::new);
            }
        }
    }

    /** {@link IngestedPosition}: the position, then its raw record. */
    public static final class IngestedPositionSerializer extends ImmutableValueSerializer<IngestedPosition> {
        private static final long serialVersionUID = 1L;

        @Override
        public void serialize(IngestedPosition record, DataOutputView target) throws IOException {
            writePosition(record.position(), target);
            writeRaw(record.source(), target);
        }

        @Override
        public IngestedPosition deserialize(DataInputView source) throws IOException {
            Position position = readPosition(source);
            return new IngestedPosition(position, readRaw(source));
        }

        @Override
        public TypeSerializerSnapshot<IngestedPosition> snapshotConfiguration() {
            return new Snapshot();
        }

        /** Restores {@link IngestedPositionSerializer}. */
        public static final class Snapshot extends SimpleTypeSerializerSnapshot<IngestedPosition> {
            public Snapshot() {
                super(IngestedPositionSerializer::new);
            }
        }
    }

    /** {@link RejectedRecord}; the reason by its stable name. */
    public static final class RejectedRecordSerializer extends ImmutableValueSerializer<RejectedRecord> {
        private static final long serialVersionUID = 1L;

        @Override
        public void serialize(RejectedRecord record, DataOutputView target) throws IOException {
            writeRaw(record.source(), target);
            StringValue.writeString(record.reason().name(), target);
            StringValue.writeString(record.detail(), target);
            writeInstant(record.rejectedAt(), target);
            StringValue.writeString(record.vehicleId(), target);
            writeNullableInstant(record.eventTime(), target);
        }

        @Override
        public RejectedRecord deserialize(DataInputView source) throws IOException {
            RawRecord raw = readRaw(source);
            RejectionReason reason = RejectionReason.valueOf(StringValue.readString(source));
            String detail = StringValue.readString(source);
            Instant rejectedAt = readInstant(source);
            String vehicleId = StringValue.readString(source);
            return new RejectedRecord(raw, reason, detail, rejectedAt, vehicleId, readNullableInstant(source));
        }

        @Override
        public TypeSerializerSnapshot<RejectedRecord> snapshotConfiguration() {
            return new Snapshot();
        }

        /** Restores {@link RejectedRecordSerializer}. */
        public static final class Snapshot extends SimpleTypeSerializerSnapshot<RejectedRecord> {
            public Snapshot() {
                super(RejectedRecordSerializer::new);
            }
        }
    }

    /** {@link RouteUpdate}. */
    public static final class RouteUpdateSerializer extends ImmutableValueSerializer<RouteUpdate> {
        private static final long serialVersionUID = 1L;

        @Override
        public void serialize(RouteUpdate update, DataOutputView target) throws IOException {
            StringValue.writeString(update.vehicleId(), target);
            writeInstant(update.fetchedAt(), target);
            target.writeBoolean(update.hasRoute());
            if (update.hasRoute()) {
                writeRoute(update.route(), target);
            }
        }

        @Override
        public RouteUpdate deserialize(DataInputView source) throws IOException {
            String vehicleId = StringValue.readString(source);
            Instant fetchedAt = readInstant(source);
            PlannedRoute route = source.readBoolean() ? readRoute(source) : null;
            return new RouteUpdate(vehicleId, route, fetchedAt);
        }

        @Override
        public TypeSerializerSnapshot<RouteUpdate> snapshotConfiguration() {
            return new Snapshot();
        }

        /** Restores {@link RouteUpdateSerializer}. */
        public static final class Snapshot extends SimpleTypeSerializerSnapshot<RouteUpdate> {
            public Snapshot() {
                super(RouteUpdateSerializer::new);
            }
        }
    }

    /** {@link RoutePoll}. */
    public static final class RoutePollSerializer extends ImmutableValueSerializer<RoutePoll> {
        private static final long serialVersionUID = 1L;

        @Override
        public void serialize(RoutePoll poll, DataOutputView target) throws IOException {
            writeInstant(poll.fetchedAt(), target);
            target.writeInt(poll.routes().size());
            for (PlannedRoute route : poll.routes()) {
                writeRoute(route, target);
            }
        }

        @Override
        public RoutePoll deserialize(DataInputView source) throws IOException {
            Instant fetchedAt = readInstant(source);
            int count = source.readInt();
            List<PlannedRoute> routes = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                routes.add(readRoute(source));
            }
            return new RoutePoll(fetchedAt, routes);
        }

        @Override
        public TypeSerializerSnapshot<RoutePoll> snapshotConfiguration() {
            return new Snapshot();
        }

        /** Restores {@link RoutePollSerializer}. */
        public static final class Snapshot extends SimpleTypeSerializerSnapshot<RoutePoll> {
            public Snapshot() {
                super(RoutePollSerializer::new);
            }
        }
    }

    static void writeRaw(RawRecord record, DataOutputView target) throws IOException {
        StringValue.writeString(record.topic(), target);
        target.writeInt(record.partition());
        target.writeLong(record.offset());
        writeInstant(record.timestamp(), target);
        writeBytes(record.key(), target);
        writeBytes(record.value(), target);
        StringValue.writeString(record.mqttTopic(), target);
        target.writeBoolean(record.mqttReceivedAt() != null);
        if (record.mqttReceivedAt() != null) {
            target.writeLong(record.mqttReceivedAt());
        }
        StringValue.writeString(record.reprocessedFrom(), target);
    }

    static RawRecord readRaw(DataInputView source) throws IOException {
        String topic = StringValue.readString(source);
        int partition = source.readInt();
        long offset = source.readLong();
        Instant timestamp = readInstant(source);
        byte[] key = readBytes(source);
        byte[] value = readBytes(source);
        String mqttTopic = StringValue.readString(source);
        Long mqttReceivedAt = source.readBoolean() ? source.readLong() : null;
        String reprocessedFrom = StringValue.readString(source);
        return new RawRecord(
                topic, partition, offset, timestamp, key, value, mqttTopic, mqttReceivedAt, reprocessedFrom);
    }

    /** A position: the mandatory fields, then a mask of the optional ones present, then those. */
    public static void writePosition(Position position, DataOutputView target) throws IOException {
        StringValue.writeString(position.vehicleId(), target);
        writeInstant(position.eventTime(), target);
        target.writeDouble(position.latitude());
        target.writeDouble(position.longitude());
        target.writeDouble(position.speedKmh());
        target.writeDouble(position.headingDeg());
        int present = (position.altitudeM() == null ? 0 : ALTITUDE)
                | (position.accuracyM() == null ? 0 : ACCURACY)
                | (position.satellites() == null ? 0 : SATELLITES)
                | (position.batteryLevel() == null ? 0 : BATTERY);
        target.writeByte(present);
        if (position.altitudeM() != null) {
            target.writeDouble(position.altitudeM());
        }
        if (position.accuracyM() != null) {
            target.writeDouble(position.accuracyM());
        }
        if (position.satellites() != null) {
            target.writeInt(position.satellites());
        }
        if (position.batteryLevel() != null) {
            target.writeDouble(position.batteryLevel());
        }
    }

    public static Position readPosition(DataInputView source) throws IOException {
        String vehicleId = StringValue.readString(source);
        Instant eventTime = readInstant(source);
        double latitude = source.readDouble();
        double longitude = source.readDouble();
        double speed = source.readDouble();
        double heading = source.readDouble();
        int present = source.readByte();
        Double altitude = (present & ALTITUDE) == 0 ? null : source.readDouble();
        Double accuracy = (present & ACCURACY) == 0 ? null : source.readDouble();
        Integer satellites = (present & SATELLITES) == 0 ? null : source.readInt();
        Double battery = (present & BATTERY) == 0 ? null : source.readDouble();
        return new Position(
                vehicleId, eventTime, latitude, longitude, speed, heading, altitude, accuracy, satellites, battery);
    }

    /** A planned route: ids, update time, stops, path. */
    public static void writeRoute(PlannedRoute route, DataOutputView target) throws IOException {
        StringValue.writeString(route.routeId(), target);
        StringValue.writeString(route.vehicleId(), target);
        writeInstant(route.updatedAt(), target);
        target.writeInt(route.stops().size());
        for (PlannedStop stop : route.stops()) {
            StringValue.writeString(stop.stopId(), target);
            StringValue.writeString(stop.name(), target);
            target.writeDouble(stop.latitude());
            target.writeDouble(stop.longitude());
        }
        target.writeInt(route.path().size());
        for (RoutePoint point : route.path()) {
            target.writeDouble(point.latitude());
            target.writeDouble(point.longitude());
        }
    }

    public static PlannedRoute readRoute(DataInputView source) throws IOException {
        String routeId = StringValue.readString(source);
        String vehicleId = StringValue.readString(source);
        Instant updatedAt = readInstant(source);
        int stopCount = source.readInt();
        List<PlannedStop> stops = new ArrayList<>(stopCount);
        for (int i = 0; i < stopCount; i++) {
            stops.add(new PlannedStop(
                    StringValue.readString(source),
                    StringValue.readString(source),
                    source.readDouble(),
                    source.readDouble()));
        }
        int pointCount = source.readInt();
        List<RoutePoint> path = new ArrayList<>(pointCount);
        for (int i = 0; i < pointCount; i++) {
            path.add(new RoutePoint(source.readDouble(), source.readDouble()));
        }
        return new PlannedRoute(routeId, vehicleId, updatedAt, stops, path);
    }

    public static void writeInstant(Instant instant, DataOutputView target) throws IOException {
        target.writeLong(instant.getEpochSecond());
        target.writeInt(instant.getNano());
    }

    public static Instant readInstant(DataInputView source) throws IOException {
        long seconds = source.readLong();
        return Instant.ofEpochSecond(seconds, source.readInt());
    }

    public static void writeNullableInstant(Instant instant, DataOutputView target) throws IOException {
        target.writeBoolean(instant != null);
        if (instant != null) {
            writeInstant(instant, target);
        }
    }

    public static Instant readNullableInstant(DataInputView source) throws IOException {
        return source.readBoolean() ? readInstant(source) : null;
    }

    private static void writeBytes(byte[] bytes, DataOutputView target) throws IOException {
        if (bytes == null) {
            target.writeInt(-1);
            return;
        }
        target.writeInt(bytes.length);
        target.write(bytes);
    }

    private static byte[] readBytes(DataInputView source) throws IOException {
        int length = source.readInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        source.readFully(bytes);
        return bytes;
    }
}
