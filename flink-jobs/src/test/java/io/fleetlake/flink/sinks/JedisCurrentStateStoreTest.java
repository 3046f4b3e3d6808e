package io.fleetlake.flink.sinks;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.model.RedisKeys;
import io.fleetlake.model.RedisKeys.VehicleField;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The script's calling convention; the script itself is tested against a real Redis in JedisCurrentStateStoreIT. */
class JedisCurrentStateStoreTest {
    private static final VehicleState STATE =
            new VehicleState("VH-0001", Instant.ofEpochMilli(1_795_000_000_123L), 40.5, -3.25, 57.5, 271.0);

    @Test
    void keysAreTheVehicleHashTheGeoIndexAndTheLastSeenSet() {
        assertThat(JedisCurrentStateStore.keys(STATE))
                .containsExactly(RedisKeys.vehicle("VH-0001"), RedisKeys.GEO_INDEX, RedisKeys.LAST_SEEN);
    }

    @Test
    void argumentsCarryEveryVehicleFieldOnce() {
        List<String> arguments = JedisCurrentStateStore.arguments(STATE, Instant.ofEpochMilli(1_795_000_001_000L));

        assertThat(arguments.subList(0, 5))
                .containsExactly("VH-0001", "1795000000123", "-3.25", "40.5", VehicleField.EVENT_TIME.field());
        Map<String, String> hash = new LinkedHashMap<>();
        List<String> pairs = arguments.subList(5, arguments.size());
        for (int i = 0; i < pairs.size(); i += 2) {
            assertThat(hash.put(pairs.get(i), pairs.get(i + 1))).isNull();
        }
        assertThat(hash.keySet())
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(VehicleField.values())
                        .map(VehicleField::field)
                        .toList());
        assertThat(hash)
                .containsEntry("event_time", "1795000000123")
                .containsEntry("latitude", "40.5")
                .containsEntry("updated_at", "1795000001000");
    }

    @Test
    void scriptIsBundled() {
        assertThat(JedisCurrentStateStore.readScript()).contains("HSET", "GEOADD", "ZADD");
    }
}
