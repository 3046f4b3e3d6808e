package io.fleetlake.stack.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetlake.common.config.ConfigSource;
import io.fleetlake.identity.mqtt.PrincipalRegistry;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackMqttIdentity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class DevicesCommandTest {
    private static final Pattern PASSWORD = Pattern.compile("MQTT password: +(\\S+)");

    @TempDir
    Path dataDirectory;

    private record Run(int exitCode, String out, String err) {}

    private Run fleet(String... arguments) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(new FleetCli());
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        List<String> withDataDirectory = new java.util.ArrayList<>(List.of(arguments));
        withDataDirectory.add("--data-dir");
        withDataDirectory.add(dataDirectory.toString());
        int exitCode = commandLine.execute(withDataDirectory.toArray(new String[0]));
        return new Run(exitCode, out.toString(), err.toString());
    }

    private PrincipalRegistry registry() {
        return StackMqttIdentity.of(StackSettings.from(ConfigSource.empty(), dataDirectory))
                .administration()
                .registry();
    }

    private static String password(Run run) {
        Matcher matcher = PASSWORD.matcher(run.out());
        assertThat(matcher.find()).as(run.out()).isTrue();
        return matcher.group(1);
    }

    @Test
    void addPrintsTheSecretOnceAndStoresOnlyItsHash() throws Exception {
        Run added = fleet("devices", "add", "VH-0042");

        assertThat(added.exitCode()).isZero();
        String secret = password(added);
        assertThat(registry().authenticate("VH-0042", secret)).isPresent();
        assertThat(Files.readString(dataDirectory.resolve("mqtt/identity/principals.json")))
                .doesNotContain(secret);

        Run again = fleet("devices", "add", "VH-0042");
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains("exists already").contains("rotate");
    }

    @Test
    void importAddsThousandsFromCsvAndWritesTheSecretsOwnerOnly() throws Exception {
        Path csv = dataDirectory.resolve("fleet.csv");
        StringBuilder lines = new StringBuilder("vehicle_id,plate\n# the depot's trucks\n\n");
        IntStream.range(0, 1_500).forEach(index -> lines.append(String.format("TRK-%04d,M-%d%n", index, index)));
        Files.writeString(csv, lines);
        Path secrets = dataDirectory.resolve("secrets.csv");

        Run imported = fleet("devices", "import", csv.toString(), "--secrets-out", secrets.toString());

        assertThat(imported.exitCode()).as(imported.err()).isZero();
        assertThat(imported.err()).contains("1,500 of 1,500 devices").contains("Imported 1,500 devices");
        List<String> written = Files.readAllLines(secrets);
        assertThat(written).hasSize(1_501).first().isEqualTo("vehicle_id,secret");
        String[] first = written.get(1).split(",");
        assertThat(registry().authenticate(first[0], first[1])).isPresent();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets)))
                .isEqualTo("rw-------");

        Run again = fleet("devices", "import", csv.toString());
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains("1500 of the vehicles have a principal already");
        Files.writeString(csv, "TRK-0001\nTRK-9999\n");
        Run skipping = fleet("devices", "import", csv.toString(), "--skip-existing");
        assertThat(skipping.exitCode()).isZero();
        assertThat(skipping.out()).startsWith("vehicle_id,secret\nTRK-9999,");
        Files.writeString(csv, "TRK/1\n");
        Run invalid = fleet("devices", "import", csv.toString());
        assertThat(invalid.exitCode()).as(invalid.toString()).isEqualTo(1);
        assertThat(invalid.err()).contains("row 1").contains("Invalid vehicle id");
    }

    @Test
    void grantListRevokeRotateAndExport() throws Exception {
        Run created = fleet("devices", "grant", "depot-madrid", "--vehicles", "MAD-1,MAD-2");
        String secret = password(created);
        Run widened = fleet("devices", "grant", "depot-madrid", "--prefix", "MAD-9");
        assertThat(widened.out()).contains("MAD-1,MAD-2; prefix MAD-9").doesNotContain("MQTT password");
        assertThat(registry().authenticate("depot-madrid", secret)).isPresent();
        fleet("devices", "add", "MAD-901");

        Run listed = fleet("devices", "list");
        assertThat(listed.out())
                .contains("depot-madrid", "gateway", "MAD-901", "device", "2 principals")
                .doesNotContain(secret);

        Path out = dataDirectory.resolve("mosquitto");
        Run exported = fleet("devices", "export-mosquitto", out.toString(), "--tls-host", "127.0.0.1");
        assertThat(exported.exitCode()).isZero();
        assertThat(Files.readString(out.resolve("acl_file")))
                .contains("user depot-madrid\n", "topic write fleet/MAD-901/position\n");
        assertThat(Files.readString(out.resolve("password_file"))).contains("depot-madrid:$7$");
        assertThat(exported.out()).contains("docker compose kill -s HUP mosquitto");
        assertThat(exported.out()).contains("TLS certificate for 127.0.0.1");
        assertThat(out.resolve("tls/server.pem")).exists();
        assertThat(out.resolve("tls/ca.pem")).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve("tls/server-key.pem"))))
                .isEqualTo("rw-------");

        Run rotated = fleet("devices", "rotate", "depot-madrid");
        String newSecret = password(rotated);
        assertThat(registry().authenticate("depot-madrid", secret)).isEmpty();
        assertThat(registry().authenticate("depot-madrid", newSecret)).isPresent();

        assertThat(fleet("devices", "revoke", "depot-madrid").exitCode()).isZero();
        assertThat(registry().principal("depot-madrid")).isEmpty();
        assertThat(fleet("devices", "revoke", "depot-madrid").err()).contains("No principal named depot-madrid");
    }

    @Test
    void rotatingOneOfTheStacksPrincipalsUpdatesItsStoredSecret() {
        StackMqttIdentity identity = StackMqttIdentity.of(StackSettings.from(ConfigSource.empty(), dataDirectory));
        String before = identity.ensure().get(StackMqttIdentity.INGEST);

        Run rotated = fleet("devices", "rotate", StackMqttIdentity.INGEST);

        assertThat(rotated.out()).contains("next start").doesNotContain("MQTT password");
        String after = identity.secret(StackMqttIdentity.INGEST).orElseThrow();
        assertThat(after).isNotEqualTo(before);
        assertThat(registry().authenticate(StackMqttIdentity.INGEST, after)).isPresent();
    }

    @Test
    void helpNamesEverySubcommand() {
        Run help = fleet("devices", "--help");

        assertThat(help.out()).contains("add", "import", "grant", "list", "revoke", "rotate", "export-mosquitto");
    }
}
