package io.fleetlake.flink.types;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.iceberg.flink.sink.FlinkWriteResult;
import org.apache.iceberg.flink.sink.WriteResultSerializer;
import org.apache.iceberg.io.WriteResult;

/**
 * The type of what Iceberg's {@code FlinkSink} writer hands to its committer once per checkpoint (the data files it
 * wrote). Iceberg declares it as {@code TypeInformation.of(FlinkWriteResult.class)}, which is not a POJO and would be
 * written by Kryo; with {@code pipeline.generic-types: false} (the pipeline refuses Kryo) the job could not even be
 * built. Registered for that class through {@code pipeline.serialization-config} ({@link PipelineSerialization}), it
 * writes the checkpoint id and the write result in Iceberg's own versioned format ({@link WriteResultSerializer}, the
 * one its sink-v2 committables use).
 */
public final class FlinkWriteResultTypeInfoFactory extends TypeInfoFactory<FlinkWriteResult> {
    static final ValueTypeInfo<FlinkWriteResult> TYPE =
            new ValueTypeInfo<>(FlinkWriteResult.class, new FlinkWriteResultSerializer());

    @Override
    public TypeInformation<FlinkWriteResult> createTypeInfo(Type type, Map<String, TypeInformation<?>> parameters) {
        return TYPE;
    }

    /** Checkpoint id, then {@link WriteResultSerializer}'s version and bytes. */
    public static final class FlinkWriteResultSerializer extends ImmutableValueSerializer<FlinkWriteResult> {
        private static final long serialVersionUID = 1L;

        @Override
        public void serialize(FlinkWriteResult result, DataOutputView target) throws IOException {
            WriteResultSerializer files = new WriteResultSerializer();
            byte[] bytes = files.serialize(result.writeResult());
            target.writeLong(result.checkpointId());
            target.writeInt(files.getVersion());
            target.writeInt(bytes.length);
            target.write(bytes);
        }

        @Override
        public FlinkWriteResult deserialize(DataInputView source) throws IOException {
            long checkpointId = source.readLong();
            int version = source.readInt();
            byte[] bytes = new byte[source.readInt()];
            source.readFully(bytes);
            WriteResult files = new WriteResultSerializer().deserialize(version, bytes);
            return new FlinkWriteResult(checkpointId, files);
        }

        @Override
        public TypeSerializerSnapshot<FlinkWriteResult> snapshotConfiguration() {
            return new Snapshot();
        }

        /** Restores {@link FlinkWriteResultSerializer}. */
        public static final class Snapshot extends SimpleTypeSerializerSnapshot<FlinkWriteResult> {
            public Snapshot() {
                super(FlinkWriteResultSerializer::new);
            }
        }
    }
}
