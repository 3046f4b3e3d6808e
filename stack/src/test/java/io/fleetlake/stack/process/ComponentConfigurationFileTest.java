package io.fleetlake.stack.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComponentConfigurationFileTest {
    @TempDir
    Path directory;

    @Test
    void commentsThenKeysInTheMapsOrder() throws IOException {
        Path file = directory.resolve("conf").resolve("component.properties");
        Map<String, String> configuration = new LinkedHashMap<>();
        configuration.put("component.b", "2");
        configuration.put("component.a", "1");

        ComponentConfigurationFile.write(file, List.of("Written by a test."), configuration);

        assertThat(Files.readString(file)).isEqualTo("# Written by a test.\ncomponent.b=2\ncomponent.a=1\n");
    }

    @Test
    void valuesReadBackAsWrittenBackslashesIncluded() throws IOException {
        Path file = directory.resolve("component.properties");
        Map<String, String> configuration = Map.of("component.data-dir", "C:\\fleet\\data", "component.empty", "");

        ComponentConfigurationFile.write(file, List.of(), configuration);

        Properties read = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            read.load(reader);
        }
        assertThat(read).containsExactlyInAnyOrderEntriesOf(configuration);
    }

    @Test
    void aNewFileIsOwnerOnlyAndARewriteReplacesTheContent() throws IOException {
        Path file = directory.resolve("component.properties");
        ComponentConfigurationFile.write(file, List.of(), Map.of("component.secret", "first"));

        ComponentConfigurationFile.write(file, List.of(), Map.of("component.secret", "second"));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(file)).isEqualTo("component.secret=second\n");
    }
}
