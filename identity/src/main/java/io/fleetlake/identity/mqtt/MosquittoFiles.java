package io.fleetlake.identity.mqtt;

import static java.util.Objects.requireNonNull;

import io.fleetlake.identity.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Mosquitto 2.0's {@code password_file} and {@code acl_file} for a registry, with the rules of {@link TopicAccess}.
 *
 * <p>Devices get Mosquitto's patterns {@code pattern write fleet/%u/position} and {@code pattern read
 * fleet/%u/commands/#}. A pattern applies to every user, so each other principal gets {@code topic deny} lines for
 * its own name first (a {@code deny} wins over any grant in Mosquitto): otherwise a gateway named {@code depot-1}
 * could report as a vehicle {@code depot-1}. A gateway's vehicles are {@code topic write fleet/<v>/position} lines.
 *
 * <p>Mosquitto's ACL cannot express an id prefix ({@code +} matches a whole topic level), so a prefix grant is
 * expanded over the vehicles known when the files are rendered: every device, every vehicle a gateway is granted by
 * name, and the extra vehicle ids given to {@link #render(PrincipalRegistry, Collection)}. A vehicle that none of
 * these names is refused by Mosquitto although the embedded broker would accept it: render again after adding it
 * (and send the broker SIGHUP). {@link Rendered#warnings()} names the prefixes that matched no vehicle.
 *
 * @see <a href="https://mosquitto.org/man/mosquitto-conf-5.html">mosquitto.conf(5), acl_file</a>
 */
public final class MosquittoFiles {
    public static final String PASSWORD_FILE = "password_file";
    public static final String ACL_FILE = "acl_file";

    private MosquittoFiles() {}

    /**
     * The two files' contents, and what the user should know about them.
     *
     * @param passwordFile {@code name:$7$...} lines
     * @param aclFile patterns for devices, then one {@code user} block per other principal
     * @param warnings prefix grants that matched no known vehicle
     */
    public record Rendered(String passwordFile, String aclFile, List<String> warnings) {
        public Rendered {
            requireNonNull(passwordFile, "passwordFile is null");
            requireNonNull(aclFile, "aclFile is null");
            warnings = List.copyOf(requireNonNull(warnings, "warnings is null"));
        }

        /** Writes {@value #PASSWORD_FILE} and {@value #ACL_FILE} into {@code directory}, owner-only. */
        public void writeTo(Path directory) throws IOException {
            OwnerOnlyFiles.createFolder(directory);
            write(directory.resolve(PASSWORD_FILE), passwordFile);
            write(directory.resolve(ACL_FILE), aclFile);
        }

        private static void write(Path file, String content) throws IOException {
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            Files.deleteIfExists(temporary);
            Files.createFile(
                    temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(temporary, content, StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    public static Rendered render(PrincipalRegistry registry) {
        return render(registry, List.of());
    }

    /** @param extraVehicles further vehicle ids a prefix grant is expanded over (see the class comment) */
    public static Rendered render(PrincipalRegistry registry, Collection<String> extraVehicles) {
        requireNonNull(registry, "registry is null");
        requireNonNull(extraVehicles, "extraVehicles is null");
        SortedSet<String> known = new TreeSet<>();
        for (String vehicle : extraVehicles) {
            known.add(PrincipalNames.requireValid(vehicle, "vehicle id"));
        }
        for (Principal principal : registry.principals()) {
            if (principal.kind() == PrincipalKind.DEVICE) {
                known.add(principal.name());
            }
            known.addAll(principal.grant().vehicles());
        }

        StringBuilder passwords = new StringBuilder();
        for (Principal principal : registry.principals()) {
            passwords
                    .append(principal.name())
                    .append(':')
                    .append(principal.secret().encoded())
                    .append('\n');
        }

        List<String> warnings = new ArrayList<>();
        StringBuilder acl = new StringBuilder();
        acl.append(
                "# Generated from the fleet's MQTT principals (`fleet devices export-mosquitto`): do not edit, render"
                        + " again.\n");
        acl.append("# Devices: a device's user name is its vehicle id.\n");
        acl.append("pattern write fleet/%u/position\n");
        acl.append("pattern read fleet/%u/commands/#\n");
        for (Principal principal : registry.principals()) {
            if (principal.kind() == PrincipalKind.DEVICE) {
                continue;
            }
            acl.append('\n').append("# ").append(principal.kind().label()).append('\n');
            acl.append("user ").append(principal.name()).append('\n');
            // The device patterns above apply to every user: this name is no vehicle.
            acl.append("topic deny fleet/").append(principal.name()).append("/position\n");
            acl.append("topic deny fleet/").append(principal.name()).append("/commands/#\n");
            switch (principal.kind()) {
                case INGEST -> acl.append("topic read fleet/+/position\n");
                case GATEWAY -> {
                    SortedSet<String> vehicles = new TreeSet<>(principal.grant().vehicles());
                    for (String prefix : principal.grant().prefixes()) {
                        SortedSet<String> matching = known.tailSet(prefix).stream()
                                .takeWhile(vehicle -> vehicle.startsWith(prefix))
                                .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
                        if (matching.isEmpty()) {
                            warnings.add("Gateway " + principal.name() + ": prefix " + prefix
                                    + " matches no known vehicle, so Mosquitto refuses all its vehicles of that prefix;"
                                    + " add the vehicles as devices or name them with --vehicles");
                        }
                        vehicles.addAll(matching);
                    }
                    for (String vehicle : vehicles) {
                        acl.append("topic write fleet/").append(vehicle).append("/position\n");
                        acl.append("topic read fleet/").append(vehicle).append("/commands/#\n");
                    }
                }
                case DEVICE -> throw new IllegalStateException("devices are handled by the patterns");
            }
        }
        return new Rendered(passwords.toString(), acl.toString(), warnings);
    }
}
