package io.fleetlake.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No dead settings: every {@code FLEET_*} variable docker-compose.yml gives one of our services is read by that
 * service's configuration, and {@code .env.example} holds exactly the variables the compose file uses.
 */
class ServiceEnvironmentTest {
    private final ComposeFile compose = Repository.exampleDeployment();

    static Stream<String> servicesWithReaders() {
        return ServiceConfigurations.servicesWithReaders().stream().sorted();
    }

    @ParameterizedTest
    @MethodSource("servicesWithReaders")
    void everyFleetVariableIsReadByTheServiceConfiguration(String service) {
        Map<String, String> environment = compose.environment(service);
        ConfigSource source = ConfigSource.empty().withEnvironment(environment).tracking();

        ServiceConfigurations.read(service, source);

        assertThat(source.unread(environment))
                .as(
                        "FLEET_* variables of service %s that its configuration never looks up (misspelt or renamed"
                                + " keys?); it reads %s",
                        service, source.lookedUpKeys())
                .isEmpty();
    }

    @Test
    void everyServiceGivenFleetVariablesIsChecked() {
        Set<String> withFleetVariables = new TreeSet<>();
        for (String service : compose.serviceNames()) {
            if (compose.environment(service).keySet().stream().anyMatch(name -> name.startsWith("FLEET_"))) {
                withFleetVariables.add(service);
            }
        }

        assertThat(ServiceConfigurations.servicesWithReaders()).containsAll(withFleetVariables);
    }

    @Test
    void everyServiceRunningOurImageIsChecked() {
        Set<String> ours = new TreeSet<>();
        for (String service : compose.serviceNames()) {
            if (compose.image(service).orElse("").startsWith(ServiceConfigurations.OUR_IMAGE_PREFIX)) {
                ours.add(service);
            }
        }
        ours.removeAll(ServiceConfigurations.WITHOUT_FLEET_CONFIGURATION);

        assertThat(ServiceConfigurations.servicesWithReaders()).containsExactlyInAnyOrderElementsOf(ours);
    }

    @Test
    void exampleEnvironmentFileHoldsExactlyTheVariablesTheComposeFileUses() {
        Set<String> defined = DotEnvFile.read(Repository.file(Repository.ENVIRONMENT_EXAMPLE))
                .variables()
                .keySet();

        assertThat(defined)
                .as("variables of %s against those docker-compose.yml refers to", Repository.ENVIRONMENT_EXAMPLE)
                .containsExactlyInAnyOrderElementsOf(compose.referencedVariables());
    }

    @Test
    void everyServiceEnvironmentResolvesWithTheExampleVariables() {
        for (String service : compose.serviceNames()) {
            Map<String, String> environment = compose.environment(service);
            assertThat(environment.values())
                    .as("environment of service %s", service)
                    .noneMatch(value -> value.contains("${") && !referencesOwnVariable(value, environment));
        }
    }

    /**
     * {@code ${env:NAME}} written as {@code $${env:NAME}}: a Kafka config provider reference the Connect worker resolves
     * itself, to a variable of the same service.
     */
    private static boolean referencesOwnVariable(String value, Map<String, String> environment) {
        Matcher reference =
                Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}").matcher(value);
        return reference.matches() && environment.containsKey(reference.group(1));
    }
}
