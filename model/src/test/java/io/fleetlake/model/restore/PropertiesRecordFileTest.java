package io.fleetlake.model.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PropertiesRecordFileTest {
    @TempDir
    Path directory;

    @Test
    void noFileIsNoRecord() {
        assertThat(PropertiesRecordFile.read(directory.resolve("job.properties")))
                .isEmpty();
    }

    @Test
    void readsBackWhatItWroteInUtf8WithTheCommentFirst() throws IOException {
        Path file = directory.resolve("handover").resolve("job.properties");
        Properties written = new Properties();
        written.setProperty("job-id", "a1b2");
        written.setProperty("location", "file:/data/handover/savepoint-ü 1");

        PropertiesRecordFile.write(file, written, "The last job");

        assertThat(Files.readAllLines(file, StandardCharsets.UTF_8).get(0)).isEqualTo("#The last job");
        assertThat(PropertiesRecordFile.read(file)).contains(written);
    }

    @Test
    void aNewRecordReplacesTheOldOneAndLeavesNoTemporaryFile() throws IOException {
        Path file = directory.resolve("job.properties");
        Properties first = new Properties();
        first.setProperty("job-id", "first");
        Properties second = new Properties();
        second.setProperty("job-id", "second");

        PropertiesRecordFile.write(file, first, "first");
        PropertiesRecordFile.write(file, second, "second");

        assertThat(PropertiesRecordFile.read(file)).contains(second);
        try (Stream<Path> files = Files.list(directory)) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void aRecordThatCannotBeReadIsAnError() throws IOException {
        Path file = directory.resolve("job.properties");
        Files.write(file, new byte[] {(byte) 0xff, (byte) 0xfe, 'x'});

        assertThatThrownBy(() -> PropertiesRecordFile.read(file))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("Cannot read " + file);
    }
}
