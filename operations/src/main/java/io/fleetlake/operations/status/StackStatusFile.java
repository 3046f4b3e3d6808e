package io.fleetlake.operations.status;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fleetlake.operations.status.ComponentStatus.State;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The supervisor's statuses in {@code <data-dir>/stack-status.json}, rewritten (atomically) at every change while the
 * stack runs, so that {@code fleet status} and {@code fleet verify}, which run in other processes, can show the
 * restarts. The file of a stopped stack stays behind; {@link StackStatus#launcherRunning()} tells them apart.
 */
public final class StackStatusFile {
    public static final String FILE_NAME = "stack-status.json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private final long launcherPid;
    private final Instant startedAt;

    public StackStatusFile(Path file, long launcherPid, Instant startedAt) {
        this.file = requireNonNull(file, "file is null");
        this.launcherPid = launcherPid;
        this.startedAt = requireNonNull(startedAt, "startedAt is null");
    }

    /** The status file of the stack whose data folder is {@code dataDirectory}. */
    public static Path location(Path dataDirectory) {
        return dataDirectory.resolve(FILE_NAME);
    }

    /** Replaces the file's content with these statuses. */
    public synchronized void write(List<ComponentStatus> statuses) {
        ObjectNode root = JSON.createObjectNode();
        root.put("launcher_pid", launcherPid);
        root.put("started_at", startedAt.toString());
        root.put("updated_at", Instant.now().toString());
        ArrayNode components = root.putArray("components");
        for (ComponentStatus status : statuses) {
            ObjectNode node = components.addObject();
            node.put("name", status.name());
            node.put("state", status.state().name());
            status.pid().ifPresent(pid -> node.put("pid", pid));
            node.put("restarts", status.restarts());
            node.put("failures_in_a_row", status.failuresInARow());
            status.lastExitCode().ifPresent(code -> node.put("last_exit_code", code));
            status.lastFailure().ifPresent(failure -> node.put("last_failure", failure));
            status.lastFailureAt().ifPresent(at -> node.put("last_failure_at", at.toString()));
            status.logFile().ifPresent(log -> node.put("log_file", log.toString()));
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            JSON.writerWithDefaultPrettyPrinter().writeValue(temporary.toFile(), root);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the stack status to " + file + ": " + e.getMessage(), e);
        }
    }

    /** The statuses in {@code file}; empty when no stack has written one there. */
    public static Optional<StackStatus> read(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            JsonNode root = JSON.readTree(file.toFile());
            List<ComponentStatus> components = new ArrayList<>();
            for (JsonNode node : root.path("components")) {
                components.add(new ComponentStatus(
                        node.path("name").asText(),
                        State.valueOf(node.path("state").asText()),
                        node.has("pid") ? OptionalLong.of(node.get("pid").asLong()) : OptionalLong.empty(),
                        node.path("restarts").asInt(),
                        node.path("failures_in_a_row").asInt(),
                        node.has("last_exit_code")
                                ? OptionalInt.of(node.get("last_exit_code").asInt())
                                : OptionalInt.empty(),
                        text(node, "last_failure"),
                        text(node, "last_failure_at").map(Instant::parse),
                        text(node, "log_file").map(Path::of)));
            }
            return Optional.of(new StackStatus(
                    root.path("launcher_pid").asLong(),
                    Instant.parse(root.path("started_at").asText()),
                    Instant.parse(root.path("updated_at").asText()),
                    components));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("Cannot read the stack status in " + file + ": " + e.getMessage(), e);
        }
    }

    private static Optional<String> text(JsonNode node, String field) {
        return node.hasNonNull(field) ? Optional.of(node.get(field).asText()) : Optional.empty();
    }

    /**
     * What a launcher wrote.
     *
     * @param launcherPid the process of {@code fleet up} / {@code fleet demo} (or the test JVM) running the stack
     * @param startedAt when that stack started
     * @param updatedAt the last change
     * @param components every supervised component
     */
    public record StackStatus(
            long launcherPid, Instant startedAt, Instant updatedAt, List<ComponentStatus> components) {
        public StackStatus {
            requireNonNull(startedAt, "startedAt is null");
            requireNonNull(updatedAt, "updatedAt is null");
            components = List.copyOf(requireNonNull(components, "components is null"));
        }

        /** False when the launcher has ended: the statuses are those of an earlier run. */
        public boolean launcherRunning() {
            return ProcessHandle.of(launcherPid).map(ProcessHandle::isAlive).orElse(false);
        }

        /** Restarts of every component, summed. */
        public int totalRestarts() {
            return components.stream().mapToInt(ComponentStatus::restarts).sum();
        }
    }
}
