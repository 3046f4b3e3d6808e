package io.fleetlake.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class PasswordHashTest {
    /** Written by Debian's mosquitto_passwd 2.0.11 ({@code mosquitto_passwd -c -b file alice s3cret}). */
    private static final String MOSQUITTO_PASSWD =
            "$7$101$F/S2XBVuKf3cy3db$8V3NoLj86SdaINcZr02/MVR9bkgEpC/3jVxDaww1b8bsfxITMSjfsfL8iRPS8W7tjtEs+qTUAFlVBhAFR/I3Gg==";

    @Test
    void verifiesWhatMosquittoPasswdWrote() {
        PasswordHash hash = new PasswordHash(MOSQUITTO_PASSWD);

        assertThat(hash.matches("s3cret")).isTrue();
        assertThat(hash.matches("s3cret ")).isFalse();
        assertThat(hash.matches("")).isFalse();
        assertThat(hash.iterations()).isEqualTo(101);
    }

    @Test
    void writesMosquittosFormat() {
        PasswordHash hash = PasswordHash.of("a-secret", new SecureRandom());

        String[] fields = hash.encoded().split("\\$");
        assertThat(fields).hasSize(5);
        assertThat(fields[1]).isEqualTo("7");
        assertThat(fields[2]).isEqualTo("1000");
        assertThat(Base64.getDecoder().decode(fields[3])).hasSize(12);
        assertThat(Base64.getDecoder().decode(fields[4])).hasSize(64);
        assertThat(hash.matches("a-secret")).isTrue();
        assertThat(hash.matches("another")).isFalse();
    }

    @Test
    void saltsEveryHash() {
        SecureRandom random = new SecureRandom();

        assertThat(PasswordHash.of("same", random)).isNotEqualTo(PasswordHash.of("same", random));
    }

    @Test
    void refusesOtherFormats() {
        assertThatThrownBy(() -> new PasswordHash("$6$salt$hash")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PasswordHash("$7$0$AAAA$AAAA")).hasMessageContaining("Malformed");
        assertThatThrownBy(() -> new PasswordHash("$7$101$AAAA$AAAA")).hasMessageContaining("64-byte hash");
    }

    @Test
    void toStringHidesTheHash() {
        assertThat(new PasswordHash(MOSQUITTO_PASSWD).toString())
                .doesNotContain("F/S2X")
                .contains("101");
    }

    @Test
    void secretsAreLongAndDistinct() {
        SecureRandom random = new SecureRandom();
        String secret = Secrets.generate(random);

        assertThat(secret).hasSize(43).matches("[A-Za-z0-9_-]+");
        assertThat(Secrets.generate(random)).isNotEqualTo(secret);
    }
}
