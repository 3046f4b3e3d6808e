package io.fleetlake.flink.types;

import java.util.List;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.iceberg.flink.sink.FlinkWriteResult;

/**
 * How the pipeline's records are serialised, the same in every entry point and test: no Kryo ({@code
 * pipeline.generic-types: false}, so that a type Flink cannot write without reflection fails when the job is built, not
 * slowly at run time), the serializer of Iceberg's write results registered ({@link #registerWriteResultType}), and
 * object reuse on.
 *
 * <p><b>Object reuse</b> ({@code pipeline.object-reuse: true}) hands a record to the next chained operator without a
 * copy. It is safe here because every record type of the pipeline is immutable (Java records over immutable values and
 * never-modified byte arrays) and no operator keeps a reference to an input record that it later modifies; the only
 * mutable value, the vehicle operator's state, never leaves the operator. {@code
 * FleetPipelineJobTest.objectReuseChangesNoOutput} runs the job with and without it and compares every output.
 */
public final class PipelineSerialization {
    private PipelineSerialization() {}

    /** Sets the serialization options on a Flink configuration (a job's or a MiniCluster's) and returns it. */
    public static Configuration configure(Configuration configuration) {
        registerWriteResultType();
        configuration.set(PipelineOptions.GENERIC_TYPES, false);
        configuration.set(PipelineOptions.OBJECT_REUSE, true);
        return configuration;
    }

    /**
     * Registers {@link FlinkWriteResultTypeInfoFactory} for Iceberg's write results through Flink's public {@code
     * pipeline.serialization-config} option, applied here once rather than left in the job's configuration: Flink keeps
     * a registered type factory for the rest of the JVM and refuses to register one twice, and an environment may apply
     * its configuration more than once. The type information is only needed where the job graph is built (this JVM).
     */
    static synchronized void registerWriteResultType() {
        if (TypeInformation.of(FlinkWriteResult.class) instanceof ValueTypeInfo) {
            return;
        }
        Configuration registration = new Configuration();
        registration.set(
                PipelineOptions.SERIALIZATION_CONFIG,
                List.of(FlinkWriteResult.class.getName() + ": {type: typeinfo, class: "
                        + FlinkWriteResultTypeInfoFactory.class.getName() + "}"));
        new ExecutionConfig().configure(registration, PipelineSerialization.class.getClassLoader());
    }
}
