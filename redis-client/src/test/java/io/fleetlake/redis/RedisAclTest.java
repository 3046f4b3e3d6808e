package io.fleetlake.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedisAclTest {
    private static Map<RedisRole, String> passwords() {
        Map<RedisRole, String> passwords = new EnumMap<>(RedisRole.class);
        passwords.put(RedisRole.PIPELINE, "pipeline-secret");
        passwords.put(RedisRole.DASHBOARD, "dashboard-secret");
        passwords.put(RedisRole.MONITOR, "monitor-secret");
        passwords.put(RedisRole.ADMIN, "admin-secret");
        return passwords;
    }

    @Test
    void defaultUserIsOffAndEveryRoleHasItsLine() {
        assertThat(RedisAcl.render(passwords()).lines())
                .containsExactly(
                        "user default off resetpass resetkeys resetchannels -@all",
                        "user pipeline on #" + RedisAcl.sha256("pipeline-secret")
                                + " resetchannels ~vehicle:* ~fleet:* -@all +@connection +@read +@write +eval"
                                + " +evalsha +script|load +script|exists +time -@dangerous",
                        "user dashboard on #" + RedisAcl.sha256("dashboard-secret")
                                + " resetchannels ~vehicle:* ~fleet:* -@all +@connection +@read -@dangerous",
                        "user monitor on #" + RedisAcl.sha256("monitor-secret")
                                + " resetchannels ~vehicle:* ~fleet:* -@all +@connection +@read -@dangerous +info",
                        "user admin on #" + RedisAcl.sha256("admin-secret") + " ~* &* +@all");
    }

    @Test
    void holdsHashesNotPasswords() {
        String acl = RedisAcl.render(passwords());

        assertThat(acl).doesNotContain("-secret");
        // SHA-256 of "abc", the FIPS 180-2 test vector: computed outside the code under test.
        assertThat(RedisAcl.sha256("abc"))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void everyRoleNeedsAPassword() {
        Map<RedisRole, String> missing = passwords();
        missing.remove(RedisRole.MONITOR);
        Map<RedisRole, String> empty = passwords();
        empty.put(RedisRole.ADMIN, "");

        assertThatThrownBy(() -> RedisAcl.render(missing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("No password for the Redis role monitor");
        assertThatThrownBy(() -> RedisAcl.render(empty))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("No password for the Redis role admin");
    }
}
