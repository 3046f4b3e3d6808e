package io.fleetlake.stack.cli;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.fleetlake.identity.IssuedSecret;
import io.fleetlake.identity.LocalCertificateAuthority;
import io.fleetlake.identity.mqtt.MosquittoFiles;
import io.fleetlake.identity.mqtt.Principal;
import io.fleetlake.identity.mqtt.PrincipalAdministration;
import io.fleetlake.identity.mqtt.PrincipalAdministration.GrantMode;
import io.fleetlake.identity.mqtt.PrincipalNames;
import io.fleetlake.identity.mqtt.PrincipalRegistry;
import io.fleetlake.identity.mqtt.VehicleGrant;
import io.fleetlake.stack.StackSettings;
import io.fleetlake.stack.identity.StackMqttIdentity;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fleet devices}: the MQTT principals of a data folder, which the embedded broker enforces (and reloads within
 * a second of a change) and which {@code export-mosquitto} renders for the compose deployment's Mosquitto. A new secret
 * is printed once; only its hash is stored.
 */
@Command(
        name = "devices",
        mixinStandardHelpOptions = true,
        description = {
            "Manage the MQTT principals of a data folder: devices (one vehicle each), gateways (relaying the vehicles"
                    + " of their grant) and the stack's own ingest connector.",
            "The embedded broker applies a change within a second, without a restart; for Mosquitto render the files"
                    + " with export-mosquitto and send it SIGHUP. New secrets are printed once and never stored."
        },
        subcommands = {
            DevicesCommand.Add.class,
            DevicesCommand.Import.class,
            DevicesCommand.Grant.class,
            DevicesCommand.ListPrincipals.class,
            DevicesCommand.Revoke.class,
            DevicesCommand.Rotate.class,
            DevicesCommand.ExportMosquitto.class
        })
public final class DevicesCommand implements Runnable {
    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "Name a subcommand, for example: fleet devices add VH-0001");
    }

    /** What every subcommand shares: the data folder's options, its output, and one way to report a user's error. */
    abstract static class Subcommand implements Callable<Integer> {
        @Mixin
        StackOptions options;

        @Spec
        CommandLine.Model.CommandSpec spec;

        abstract Integer run() throws IOException;

        @Override
        public final Integer call() throws IOException {
            try {
                return run();
            } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
                spec.commandLine().getErr().println("fleet devices " + spec.name() + ": " + e.getMessage());
                return 1;
            }
        }
    }

    /** The registry of the data folder the options name. */
    static StackMqttIdentity identity(StackOptions options) {
        StackSettings settings = options.settings(options.configuration(), options.home());
        return StackMqttIdentity.of(settings);
    }

    static void printSecret(PrintWriter out, IssuedSecret issued) {
        out.println("MQTT user name: " + issued.name());
        out.println("MQTT password:  " + issued.secret());
        out.println(
                "(shown once: only its hash is stored; `fleet devices rotate " + issued.name() + "` issues a new one)");
    }

    @Command(name = "add", mixinStandardHelpOptions = true, description = "Add the device of a vehicle.")
    static final class Add extends Subcommand {

        @Parameters(paramLabel = "VEHICLE_ID", description = "The vehicle id; also the device's MQTT user name.")
        private String vehicleId;

        @Override
        Integer run() {
            printSecret(
                    spec.commandLine().getOut(),
                    identity(options).administration().addDevice(vehicleId));
            return 0;
        }
    }

    @Command(
            name = "import",
            mixinStandardHelpOptions = true,
            description = {
                "Add a device for every vehicle of a CSV file, all in one change.",
                "CSV: one vehicle id per line in the first column (UTF-8); a header line whose first column is"
                        + " vehicle_id, blank lines and lines starting with # are skipped; other columns are ignored.",
                "The new secrets are written as CSV (vehicle_id,secret) to --secrets-out (created owner-only) or to"
                        + " standard output; progress and the summary go to standard error."
            })
    static final class Import extends Subcommand {

        @Parameters(paramLabel = "FILE.csv", description = "The vehicles.")
        private Path file;

        @Option(
                names = "--secrets-out",
                paramLabel = "FILE",
                description = "Write the secrets here (must not exist) instead of standard output.")
        private Path secretsOut;

        @Option(names = "--skip-existing", description = "Leave vehicles that already have a principal as they are.")
        private boolean skipExisting;

        @Override
        Integer run() throws IOException {
            List<String> vehicles = readVehicles(file);
            PrincipalAdministration administration = identity(options).administration();
            PrincipalRegistry registry = administration.registry();
            List<String> existing = vehicles.stream()
                    .filter(vehicle -> registry.principal(vehicle).isPresent())
                    .toList();
            if (!existing.isEmpty() && !skipExisting) {
                spec.commandLine()
                        .getErr()
                        .println(existing.size() + " of the vehicles have a principal already (" + sample(existing)
                                + "): nothing was imported. Remove them from the file or pass --skip-existing.");
                return 1;
            }
            List<String> added = new ArrayList<>(vehicles);
            added.removeAll(existing);
            if (secretsOut != null && Files.exists(secretsOut)) {
                spec.commandLine()
                        .getErr()
                        .println(secretsOut + " exists: choose a new file, secrets are written once");
                return 1;
            }
            long start = System.nanoTime();
            List<IssuedSecret> issued = administration.addDevices(
                    added, done -> spec.commandLine().getErr().printf("  %,d of %,d devices%n", done, added.size()));
            writeSecrets(issued);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            spec.commandLine()
                    .getErr()
                    .printf(
                            "Imported %,d devices from %s in %.1f s (%,d already there, skipped); %,d principals in %s%n",
                            issued.size(),
                            file,
                            took.toMillis() / 1000.0,
                            existing.size(),
                            administration.registry().size(),
                            administration.file().path());
            spec.commandLine()
                    .getErr()
                    .println("Secrets: " + (secretsOut == null ? "standard output" : secretsOut)
                            + " (shown once: only their hashes are stored)");
            return 0;
        }

        private void writeSecrets(List<IssuedSecret> issued) throws IOException {
            if (secretsOut == null) {
                write(spec.commandLine().getOut(), issued);
                return;
            }
            Files.createFile(
                    secretsOut, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            try (Writer writer = Files.newBufferedWriter(secretsOut, StandardCharsets.UTF_8)) {
                write(writer, issued);
            }
        }

        private static void write(Writer writer, List<IssuedSecret> issued) throws IOException {
            writer.write("vehicle_id,secret\n");
            for (IssuedSecret secret : issued) {
                writer.write(secret.name() + "," + secret.secret() + "\n");
            }
            writer.flush();
        }

        /** The vehicle ids of the CSV file (see the command's description), each valid, none twice. */
        static List<String> readVehicles(Path file) throws IOException {
            CsvMapper mapper = new CsvMapper()
                    .enable(CsvParser.Feature.WRAP_AS_ARRAY)
                    .enable(CsvParser.Feature.TRIM_SPACES)
                    .enable(CsvParser.Feature.SKIP_EMPTY_LINES)
                    .enable(CsvParser.Feature.ALLOW_COMMENTS);
            Set<String> vehicles = new LinkedHashSet<>();
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
                    MappingIterator<String[]> rows =
                            mapper.readerFor(String[].class).readValues(reader)) {
                int line = 0;
                while (rows.hasNextValue()) {
                    String[] row = rows.nextValue();
                    line++;
                    if (row.length == 0 || row[0].isEmpty()) {
                        continue;
                    }
                    String vehicle = row[0];
                    if (line == 1 && vehicle.equalsIgnoreCase("vehicle_id")) {
                        continue;
                    }
                    if (!PrincipalNames.isValid(vehicle)) {
                        throw new IllegalArgumentException(file + ", row " + line + ": " + errorOf(vehicle));
                    }
                    if (!vehicles.add(vehicle)) {
                        throw new IllegalArgumentException(
                                file + ", row " + line + ": vehicle " + vehicle + " is listed twice");
                    }
                }
            }
            return List.copyOf(vehicles);
        }

        private static String errorOf(String vehicle) {
            try {
                PrincipalNames.requireValid(vehicle, "vehicle id");
                return "";
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        }

        private static String sample(List<String> names) {
            return names.size() <= 5 ? String.join(", ", names) : String.join(", ", names.subList(0, 5)) + ", ...";
        }
    }

    @Command(
            name = "grant",
            mixinStandardHelpOptions = true,
            description = {
                "Create a gateway (a telematics server or depot gateway relaying many vehicles) or widen its grant.",
                "A new gateway's secret is printed once; an existing gateway keeps its secret."
            })
    static final class Grant extends Subcommand {

        @Parameters(paramLabel = "GATEWAY", description = "The gateway's MQTT user name; its client ids start with it.")
        private String gateway;

        @ArgGroup(exclusive = false, multiplicity = "1")
        private Vehicles vehicles;

        @Option(names = "--replace", description = "Set the grant to exactly these vehicles instead of adding them.")
        private boolean replace;

        static final class Vehicles {
            @Option(
                    names = "--vehicles",
                    split = ",",
                    paramLabel = "ID",
                    description = "Vehicle ids, separated by commas.")
            private List<String> ids = new ArrayList<>();

            @Option(
                    names = "--prefix",
                    split = ",",
                    paramLabel = "PREFIX",
                    description = "Vehicle id prefixes: every vehicle whose id starts with one, now and later.")
            private List<String> prefixes = new ArrayList<>();
        }

        @Override
        Integer run() {
            PrincipalAdministration administration = identity(options).administration();
            VehicleGrant grant =
                    new VehicleGrant(new java.util.TreeSet<>(vehicles.ids), new java.util.TreeSet<>(vehicles.prefixes));
            Optional<IssuedSecret> issued =
                    administration.grant(gateway, grant, replace ? GrantMode.REPLACE : GrantMode.ADD);
            Principal principal = administration.registry().principal(gateway).orElseThrow();
            spec.commandLine()
                    .getOut()
                    .println("Gateway " + gateway + " relays: "
                            + principal.grant().describe());
            issued.ifPresent(secret -> printSecret(spec.commandLine().getOut(), secret));
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the principals (no secrets).")
    static final class ListPrincipals extends Subcommand {

        @Override
        Integer run() {
            PrincipalAdministration administration = identity(options).administration();
            PrincipalRegistry registry = administration.registry();
            spec.commandLine().getOut().printf("%-32s %-8s %-24s %-40s%n", "NAME", "KIND", "SECRET SET", "GRANT");
            for (Principal principal : registry.principals()) {
                spec.commandLine()
                        .getOut()
                        .printf(
                                "%-32s %-8s %-24s %-40s%n",
                                principal.name(),
                                principal.kind().label(),
                                principal.secretChanged(),
                                principal.grant().describe());
            }
            spec.commandLine()
                    .getOut()
                    .println(registry.size() + " principals in "
                            + administration.file().path());
            return 0;
        }
    }

    @Command(
            name = "revoke",
            mixinStandardHelpOptions = true,
            description = "Remove a principal: the embedded broker refuses it and disconnects its clients within a"
                    + " second.")
    static final class Revoke extends Subcommand {

        @Parameters(paramLabel = "NAME", description = "The principal's name.")
        private String name;

        @Override
        Integer run() {
            StackMqttIdentity identity = identity(options);
            Principal revoked = identity.administration().revoke(name);
            spec.commandLine().getOut().println("Revoked " + revoked.kind().label() + " " + name);
            if (identity.secret(name).isPresent()) {
                spec.commandLine()
                        .getOut()
                        .println("It is one of the stack's own principals: the stack creates it again at its next"
                                + " start.");
            }
            return 0;
        }
    }

    @Command(
            name = "rotate",
            mixinStandardHelpOptions = true,
            description = "Give a principal a new secret; the old one stops working within a second.")
    static final class Rotate extends Subcommand {

        @Parameters(paramLabel = "NAME", description = "The principal's name.")
        private String name;

        @Override
        Integer run() {
            StackMqttIdentity identity = identity(options);
            IssuedSecret issued = identity.administration().rotate(name);
            if (identity.remember(issued)) {
                spec.commandLine()
                        .getOut()
                        .println("Rotated the stack's own principal " + name + "; its components use the new"
                                + " secret from their next start (restart the stack).");
                return 0;
            }
            printSecret(spec.commandLine().getOut(), issued);
            return 0;
        }
    }

    @Command(
            name = "export-mosquitto",
            mixinStandardHelpOptions = true,
            description = {
                "Render Mosquitto's password_file and acl_file (owner-only) into DIR from the same principals.",
                "Mosquitto's ACL cannot express an id prefix: a gateway's prefix is expanded over the vehicles known"
                        + " now (devices, vehicles granted by name, --vehicles-file). Reload the broker after each"
                        + " export: docker compose kill -s HUP mosquitto."
            })
    static final class ExportMosquitto extends Subcommand {

        @Parameters(paramLabel = "DIR", description = "Where to write the files, e.g. deploy/mosquitto/auth.")
        private Path directory;

        @Option(
                names = "--vehicles-file",
                paramLabel = "FILE.csv",
                description = "More vehicle ids to expand prefix grants over (the import format).")
        private Path vehiclesFile;

        @Option(
                names = "--tls-host",
                paramLabel = "NAME",
                description = "Also issue the TLS listener's certificate for these host names or addresses into"
                        + " DIR/tls (server.pem, server-key.pem; clients trust ca.pem) from a local CA kept there;"
                        + " renewed when a name is added or it nears its end. Repeatable.")
        private List<String> tlsHosts = new ArrayList<>();

        @Override
        Integer run() throws IOException {
            PrincipalRegistry registry = identity(options).administration().registry();
            List<String> extra = vehiclesFile == null ? List.of() : Import.readVehicles(vehiclesFile);
            MosquittoFiles.Rendered rendered = MosquittoFiles.render(registry, extra);
            rendered.writeTo(directory);
            if (!tlsHosts.isEmpty()) {
                LocalCertificateAuthority.ensure(directory.resolve("tls"), tlsHosts, Clock.systemUTC());
                spec.commandLine()
                        .getOut()
                        .println("TLS certificate for " + String.join(", ", tlsHosts) + " in "
                                + directory.resolve("tls") + "; devices trust "
                                + directory.resolve("tls").resolve(LocalCertificateAuthority.CA_CERTIFICATE));
            }
            rendered.warnings().forEach(warning -> spec.commandLine().getErr().println("Warning: " + warning));
            spec.commandLine()
                    .getOut()
                    .println("Wrote " + directory.resolve(MosquittoFiles.PASSWORD_FILE) + " and "
                            + directory.resolve(MosquittoFiles.ACL_FILE) + " for " + registry.size() + " principals");
            spec.commandLine().getOut().println("Reload Mosquitto: docker compose kill -s HUP mosquitto");
            return 0;
        }
    }
}
