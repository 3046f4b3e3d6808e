package io.fleetlake.model.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

class PositionSchemasTest {
    private final PositionSchemas schemas = PositionSchemas.bundled();

    @Test
    void versionsAreNumberedInReleaseOrder() {
        assertThat(schemas.versions()).isNotEmpty();
        for (int i = 0; i < schemas.versions().size(); i++) {
            assertThat(schemas.versions().get(i).number()).isEqualTo(i + 1);
            assertThat(schemas.versions().get(i).file()).isEqualTo("position-v" + (i + 1) + ".avsc");
        }
    }

    @Test
    void everyFieldOfEveryVersionIsAKnownPositionField() {
        for (PositionSchemas.SchemaVersion version : schemas.versions()) {
            for (Schema.Field field : version.schema().getFields()) {
                assertThat(Arrays.stream(PositionField.values()).map(PositionField::fieldName))
                        .as("field %s of %s", field.name(), version.file())
                        .contains(field.name());
            }
        }
    }

    @Test
    void fingerprintsAreDistinct() {
        assertThat(schemas.versions().stream().map(PositionSchemas.SchemaVersion::fingerprint))
                .doesNotHaveDuplicates();
    }

    @Test
    void unknownVersionNumberIsReported() {
        assertThatThrownBy(() -> schemas.version(99)).hasMessageContaining("version 99 does not exist");
    }
}
