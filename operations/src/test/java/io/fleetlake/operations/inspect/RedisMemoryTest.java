package io.fleetlake.operations.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.operations.inspect.RedisInspector.Memory;
import org.junit.jupiter.api.Test;

class RedisMemoryTest {
    @Test
    void readsUsedAndMaxMemoryAndOomRefusalsFromInfo() {
        // As redis-server 7.4 answers INFO memory and INFO errorstats (shortened).
        String info = "# Memory\r\nused_memory:1048576\r\nused_memory_human:1.00M\r\nused_memory_rss:9000000\r\n"
                + "maxmemory:268435456\r\nmaxmemory_human:256.00M\r\nmaxmemory_policy:noeviction\r\n\n"
                + "# Errorstats\r\nerrorstat_NOPERM:count=2\r\nerrorstat_OOM:count=17\r\n";

        assertThat(Memory.parse(info)).isEqualTo(new Memory(1_048_576, 268_435_456, 17));
    }

    @Test
    void noLimitAndNoRefusalAreZero() {
        assertThat(Memory.parse("# Memory\r\nused_memory:5000\r\nmaxmemory:0\r\n\n# Errorstats\r\n"))
                .isEqualTo(new Memory(5000, 0, 0));
    }
}
