package io.fleetlake.stack.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.identity.catalog.CatalogClients;
import io.fleetlake.model.catalog.CatalogRole;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackCatalogIdentity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CatalogClientsCommandTest {
    private static final Pattern SECRET = Pattern.compile("client secret: +(\\S+)");

    @TempDir
    Path dataDirectory;

    private record Run(int exitCode, String out, String err) {}

    private Run fleet(String... arguments) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(new FleetCli());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        List<String> withDataDirectory = new ArrayList<>(List.of(arguments));
        withDataDirectory.add("--data-dir");
        withDataDirectory.add(dataDirectory.toString());
        return new Run(commandLine.execute(withDataDirectory.toArray(new String[0])), out.toString(), err.toString());
    }

    private StackSettings settings() {
        return StackSettings.from(ConfigSource.empty(), dataDirectory);
    }

    private CatalogClients clients() {
        return new CatalogClients(StackCatalogIdentity.clientsFile(settings()));
    }

    @Test
    void addPrintsTheSecretOnceAndListShowsRolesOnly() throws Exception {
        Run added = fleet("catalog-clients", "add", "analytics", "--role", "reader");

        assertThat(added.exitCode()).as(added.err()).isZero();
        Matcher secret = SECRET.matcher(added.out());
        assertThat(secret.find()).isTrue();
        assertThat(clients().authenticate("analytics", secret.group(1))).contains(CatalogRole.READER);
        assertThat(Files.readString(StackCatalogIdentity.clientsFile(settings())))
                .doesNotContain(secret.group(1));
        Run listed = fleet("catalog-clients", "list");
        assertThat(listed.out()).contains("analytics\treader").doesNotContain(secret.group(1));
        assertThat(fleet("catalog-clients", "add", "analytics", "--role", "admin")
                        .exitCode())
                .isEqualTo(1);
        assertThat(fleet("catalog-clients", "add", "other", "--role", "root").err())
                .contains("reader, writer, maintainer, admin");
    }

    @Test
    void rotatingOneOfTheStacksClientsKeepsItsNewSecretForItsComponents() {
        StackCatalogIdentity identity = StackCatalogIdentity.of(settings()).ensure();
        String before = identity.credential(CatalogRole.WRITER).secret();

        Run rotated = fleet("catalog-clients", "rotate", StackCatalogIdentity.WRITER);

        assertThat(rotated.exitCode()).as(rotated.err()).isZero();
        String after = StackCatalogIdentity.of(settings())
                .credential(CatalogRole.WRITER)
                .secret();
        assertThat(after).isNotEqualTo(before);
        assertThat(rotated.out()).doesNotContain(after);
        assertThat(clients().authenticate(StackCatalogIdentity.WRITER, after)).contains(CatalogRole.WRITER);
        assertThat(clients().authenticate(StackCatalogIdentity.WRITER, before)).isEmpty();
    }

    @Test
    void revokeRemovesAClientAndAnUnknownOneIsAnError() {
        fleet("catalog-clients", "add", "notebook", "--role", "reader");

        assertThat(fleet("catalog-clients", "revoke", "notebook").exitCode()).isZero();
        assertThat(clients().role("notebook")).isEmpty();
        Run unknown = fleet("catalog-clients", "revoke", "notebook");
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.err()).contains("No catalog client notebook");
    }
}
