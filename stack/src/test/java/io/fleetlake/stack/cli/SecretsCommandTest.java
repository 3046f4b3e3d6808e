package io.fleetlake.stack.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.identity.catalog.CatalogClients;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.stack.compose.ComposeSecrets;
import io.fleetlake.stack.compose.EnvironmentFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SecretsCommandTest {
    private static final String EXAMPLE =
            """
            # The address the operator's ports listen on.
            OPERATOR_PUBLISH_ADDRESS=127.0.0.1
            # Redis password.
            REDIS_PASSWORD=change-me-redis
            SIMULATOR_VEHICLES=340
            CATALOG_READER_SECRET=change-me-catalog-reader
            CATALOG_WRITER_SECRET=change-me-catalog-writer
            CATALOG_MAINTAINER_SECRET=change-me-catalog-maintainer
            CATALOG_ADMIN_SECRET=change-me-catalog-admin
            """;

    @TempDir
    Path directory;

    private record Run(int exitCode, String out, String err) {}

    @BeforeEach
    void writeExample() throws Exception {
        Files.writeString(directory.resolve(".env.example"), EXAMPLE);
    }

    private Run fleet(String... arguments) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(new FleetCli());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        List<String> withDirectory = new ArrayList<>(List.of(arguments));
        withDirectory.add("--dir");
        withDirectory.add(directory.toString());
        return new Run(commandLine.execute(withDirectory.toArray(new String[0])), out.toString(), err.toString());
    }

    private Map<String, String> environment() throws Exception {
        return EnvironmentFile.parse(Files.readString(directory.resolve(".env")))
                .values();
    }

    @Test
    void initReplacesEveryChangeMeValueWithASecretItNeverPrints() throws Exception {
        Run run = fleet("secrets", "init");

        assertThat(run.exitCode()).as(run.err()).isZero();
        Map<String, String> environment = environment();
        assertThat(environment)
                .containsEntry("OPERATOR_PUBLISH_ADDRESS", "127.0.0.1")
                .containsEntry("SIMULATOR_VEHICLES", "340");
        List<String> secrets = List.of(
                "REDIS_PASSWORD",
                "CATALOG_READER_SECRET",
                "CATALOG_WRITER_SECRET",
                "CATALOG_MAINTAINER_SECRET",
                "CATALOG_ADMIN_SECRET");
        for (String name : secrets) {
            assertThat(environment.get(name)).as(name).matches("[A-Za-z0-9_-]{43}");
            assertThat(run.out()).contains(name).doesNotContain(environment.get(name));
        }
        assertThat(environment.values()).doesNotHaveDuplicates();
        assertThat(Files.readString(directory.resolve(".env"))).contains("# Redis password.");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory.resolve(".env"))))
                .isEqualTo("rw-------");
    }

    @Test
    void initRefusesToReplaceAnExistingEnvironmentUnlessForced() throws Exception {
        assertThat(fleet("secrets", "init").exitCode()).isZero();
        String first = environment().get("REDIS_PASSWORD");

        Run again = fleet("secrets", "init");

        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains(".env exists").contains("--force");
        assertThat(environment().get("REDIS_PASSWORD")).isEqualTo(first);
        assertThat(fleet("secrets", "init", "--force").exitCode()).isZero();
        assertThat(environment().get("REDIS_PASSWORD")).isNotEqualTo(first);
    }

    @Test
    void rotateReplacesOnlyTheNamedSecretsAndRefusesWhatIsNoSecret() throws Exception {
        assertThat(fleet("secrets", "init").exitCode()).isZero();
        Map<String, String> before = environment();

        Run rotated = fleet("secrets", "rotate", "REDIS_PASSWORD");

        assertThat(rotated.exitCode()).as(rotated.err()).isZero();
        Map<String, String> after = environment();
        assertThat(after.get("REDIS_PASSWORD")).isNotEqualTo(before.get("REDIS_PASSWORD"));
        assertThat(rotated.out()).contains("REDIS_PASSWORD").doesNotContain(after.get("REDIS_PASSWORD"));
        assertThat(after).containsEntry("CATALOG_WRITER_SECRET", before.get("CATALOG_WRITER_SECRET"));
        Run notASecret = fleet("secrets", "rotate", "SIMULATOR_VEHICLES");
        assertThat(notASecret.exitCode()).isEqualTo(1);
        assertThat(notASecret.err()).contains("SIMULATOR_VEHICLES is not a secret");
        assertThat(fleet("secrets", "rotate", "NO_SUCH_NAME").exitCode()).isEqualTo(1);
        assertThat(environment()).isEqualTo(after);
    }

    @Test
    void theCatalogClientsFileHoldsHashesOfTheEnvironmentsSecretsWithTheirRoles() throws Exception {
        assertThat(fleet("secrets", "init").exitCode()).isZero();
        CatalogClients clients = new CatalogClients(directory.resolve(ComposeSecrets.CATALOG_CLIENTS));
        Map<String, String> environment = environment();

        assertThat(clients.authenticate("fleet-reader", environment.get("CATALOG_READER_SECRET")))
                .contains(CatalogRole.READER);
        assertThat(clients.authenticate("fleet-writer", environment.get("CATALOG_WRITER_SECRET")))
                .contains(CatalogRole.WRITER);
        assertThat(clients.authenticate("fleet-maintainer", environment.get("CATALOG_MAINTAINER_SECRET")))
                .contains(CatalogRole.MAINTAINER);
        assertThat(clients.authenticate("fleet-admin", environment.get("CATALOG_ADMIN_SECRET")))
                .contains(CatalogRole.ADMIN);
        assertThat(clients.authenticate("fleet-admin", environment.get("CATALOG_READER_SECRET")))
                .isEmpty();
        String file = Files.readString(clients.path());
        environment.values().forEach(value -> assertThat(file).doesNotContain(value));

        String oldWriter = environment.get("CATALOG_WRITER_SECRET");
        assertThat(fleet("secrets", "rotate", "CATALOG_WRITER_SECRET").exitCode())
                .isZero();
        assertThat(clients.authenticate("fleet-writer", oldWriter)).isEmpty();
        assertThat(clients.authenticate("fleet-writer", environment().get("CATALOG_WRITER_SECRET")))
                .contains(CatalogRole.WRITER);
    }
}
