package io.fleetlake.common.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class BoundedBodyTest {
    @Test
    void readsABodyUpToTheLimit() throws Exception {
        assertThat(BoundedBody.read(new ByteArrayInputStream(new byte[16]), -1, 16))
                .hasSize(16);
    }

    @Test
    void refusesADeclaredLengthOverTheLimitWithoutReading() {
        InputStream unread = new ByteArrayInputStream(new byte[0]) {
            @Override
            public int read(byte[] buffer) {
                throw new AssertionError("read although the declared length is over the limit");
            }
        };
        assertThatThrownBy(() -> BoundedBody.read(unread, 17, 16))
                .isInstanceOf(BoundedBody.TooLargeException.class)
                .hasMessageContaining("16 bytes");
    }

    @Test
    void refusesAnUndeclaredBodyOverTheLimit() {
        assertThatThrownBy(() -> BoundedBody.read(new ByteArrayInputStream(new byte[17]), -1, 16))
                .isInstanceOf(BoundedBody.TooLargeException.class);
    }
}
