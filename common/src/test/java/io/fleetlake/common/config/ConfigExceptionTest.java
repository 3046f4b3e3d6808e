package io.fleetlake.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConfigExceptionTest {
    @Test
    void invalidValueNamesTheKeyTheValueWhatIsExpectedAndWhereToSetIt() {
        ConfigException invalid = ConfigException.invalidValue("simulator.vehicles", 0, "a whole number from 1");

        assertThat(invalid)
                .hasMessage("Invalid configuration simulator.vehicles = '0': expected a whole number from 1 (set it"
                        + " in the configuration file, the environment variable FLEET_SIMULATOR_VEHICLES or with"
                        + " --set simulator.vehicles=...)")
                .hasNoCause();
    }
}
