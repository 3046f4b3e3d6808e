package io.fleetlake.flink.sinks;

import io.fleetlake.model.VehicleStatus;
import java.io.IOException;
import java.time.Instant;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Serialises the Redis writer's pending updates into its checkpointed state. Version 1: vehicle id, event time
 * (epoch seconds and nanoseconds), latitude, longitude, speed, heading, battery level (presence flag, value), status
 * name, route id, next stop id (presence flag, value), the two distances (presence flag, value), the stale flag. A
 * change of the layout needs a new version that still reads version 1, or checkpoints taken during a Redis outage
 * cannot be restored.
 */
final class VehicleStateSerializer implements SimpleVersionedSerializer<VehicleState> {
    static final int VERSION = 1;
    private static final int INITIAL_BUFFER_SIZE = 128;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(VehicleState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(INITIAL_BUFFER_SIZE);
        out.writeUTF(state.vehicleId());
        out.writeLong(state.eventTime().getEpochSecond());
        out.writeInt(state.eventTime().getNano());
        out.writeDouble(state.latitude());
        out.writeDouble(state.longitude());
        out.writeDouble(state.speedKmh());
        out.writeDouble(state.headingDeg());
        writeOptional(out, state.batteryLevel());
        out.writeUTF(state.status().name());
        writeOptional(out, state.routeId());
        writeOptional(out, state.nextStopId());
        writeOptional(out, state.distanceToNextStopM());
        writeOptional(out, state.distanceFromRouteM());
        out.writeBoolean(state.enrichmentStale());
        return out.getCopyOfBuffer();
    }

    @Override
    public VehicleState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("Cannot read the Redis writer's pending update of state version " + version
                    + ": this release reads version " + VERSION + "; restore the checkpoint with the release that"
                    + " wrote it, or start without it (Redis then lags until every vehicle reports again)");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        return new VehicleState(
                in.readUTF(),
                Instant.ofEpochSecond(in.readLong(), in.readInt()),
                in.readDouble(),
                in.readDouble(),
                in.readDouble(),
                in.readDouble(),
                readOptionalDouble(in),
                VehicleStatus.valueOf(in.readUTF()),
                readOptionalString(in),
                readOptionalString(in),
                readOptionalDouble(in),
                readOptionalDouble(in),
                in.readBoolean());
    }

    private static void writeOptional(DataOutputSerializer out, Double value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeDouble(value);
        }
    }

    private static void writeOptional(DataOutputSerializer out, String value) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeUTF(value);
        }
    }

    private static Double readOptionalDouble(DataInputDeserializer in) throws IOException {
        return in.readBoolean() ? in.readDouble() : null;
    }

    private static String readOptionalString(DataInputDeserializer in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
