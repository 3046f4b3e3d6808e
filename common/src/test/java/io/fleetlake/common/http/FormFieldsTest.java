package io.fleetlake.common.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FormFieldsTest {
    @Test
    void decodesTheFirstValueOfEachField() {
        assertThat(FormFields.decode("user=operator&password=a%2Bb+c%26&user=other&flag"))
                .isEqualTo(Map.of("user", "operator", "password", "a+b c&", "flag", ""));
    }

    @Test
    void aMalformedFieldIsRefusedWithoutItsValue() {
        assertThatThrownBy(() -> FormFields.decode("password=secret%zz"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Malformed form field in the request body");
    }
}
