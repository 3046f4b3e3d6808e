package io.fleetlake.model.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * The build-time gate: every released Position schema must follow the evolution rules against every earlier one. A new
 * schema version that breaks a rule fails this test with a message naming the schema file and the field.
 */
class SchemaEvolutionGateTest {
    private final PositionSchemas bundled = PositionSchemas.bundled();

    @Test
    void bundledSchemaHistoryFollowsTheEvolutionRules() {
        assertThat(SchemaEvolutionGate.check(bundled))
                .as("Position schema evolution violations")
                .isEmpty();
    }

    @Test
    void fieldWithoutDefaultIsRefused() throws IOException {
        assertThat(SchemaEvolutionGate.check(withCandidate("adds-field-without-default.avsc")))
                .extracting(SchemaEvolutionGate.Violation::field)
                .containsOnly("odometer_km");
        assertThat(SchemaEvolutionGate.check(withCandidate("adds-field-without-default.avsc"))
                        .get(0)
                        .toString())
                .startsWith("v3: adds field 'odometer_km' without a default");
    }

    @Test
    void removedFieldIsRefused() throws IOException {
        List<SchemaEvolutionGate.Violation> violations = SchemaEvolutionGate.check(withCandidate("removes-field.avsc"));

        assertThat(violations).isNotEmpty().allSatisfy(violation -> {
            assertThat(violation.field()).isEqualTo("heading_deg");
            assertThat(violation.message()).contains("removes field 'heading_deg'");
        });
    }

    @Test
    void typeChangeIsRefusedEvenWhenAvroWouldPromoteIt() throws IOException {
        List<SchemaEvolutionGate.Violation> violations =
                SchemaEvolutionGate.check(withCandidate("changes-field-type.avsc"));

        assertThat(violations).isNotEmpty().allSatisfy(violation -> {
            assertThat(violation.field()).isEqualTo("satellites");
            assertThat(violation.message()).contains("changes the type of field 'satellites'");
        });
    }

    @Test
    void optionalFieldWithDefaultIsAccepted() throws IOException {
        assertThat(SchemaEvolutionGate.check(withCandidate("adds-optional-field.avsc")))
                .isEmpty();
    }

    private PositionSchemas withCandidate(String resource) throws IOException {
        List<Schema> schemas = new ArrayList<>();
        bundled.versions().forEach(version -> schemas.add(version.schema()));
        try (InputStream in = getClass().getResourceAsStream("/evolution/" + resource)) {
            schemas.add(new Schema.Parser().parse(in));
        }
        return PositionSchemas.of(schemas);
    }
}
