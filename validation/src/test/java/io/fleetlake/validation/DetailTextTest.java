package io.fleetlake.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DetailTextTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "200.0, 200",
        "200.1, 200.1",
        "-0.5, -0.5",
        "0.0000001, 0.0000001",
        "90.0001, 90.0001",
        "NaN, NaN",
        "Infinity, Infinity",
    })
    void number(double value, String expected) {
        assertThat(DetailText.number(value)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "P7D, 7d",
        "PT48H, 2d",
        "PT26H, 26h",
        "PT30M, 30m",
        "PT90M, 90m",
        "PT30S, 30s",
        "PT30.001S, 30.001s",
        "PT0.25S, 0.25s",
        "PT0S, 0s",
        "PT-45S, -45s",
        "PT2562047788015215H, 9223372036854774000s",
        "PT-2562047788015215H, -9223372036854774000s",
    })
    void duration(Duration value, String expected) {
        assertThat(DetailText.duration(value)).isEqualTo(expected);
    }
}
