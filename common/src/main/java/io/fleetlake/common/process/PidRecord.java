package io.fleetlake.common.process;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A process as a pid file records it: its pid and its start time, so that a pid the system has since given to another
 * process is not taken for it. The file holds one line, {@code <pid> <start instant>}.
 */
record PidRecord(long pid, Instant startedAt) {
    private static final Logger LOG = LoggerFactory.getLogger(PidRecord.class);

    PidRecord {
        requireNonNull(startedAt, "startedAt is null");
    }

    /** The record of a running process; empty when it has ended or the system does not tell its start time. */
    static Optional<PidRecord> of(ProcessHandle process) {
        return process.info().startInstant().map(startedAt -> new PidRecord(process.pid(), startedAt));
    }

    /** What {@code file} records; empty when there is no file or it cannot be understood (logged). */
    static Optional<PidRecord> read(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the pid file " + file + ": " + e.getMessage(), e);
        }
        String[] fields = text.split(" ");
        try {
            if (fields.length == 2) {
                return Optional.of(new PidRecord(Long.parseLong(fields[0]), Instant.parse(fields[1])));
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            // Reported below, as every other unreadable content.
        }
        LOG.warn("Ignoring the pid file {}: it holds \"{}\", not \"<pid> <start instant>\"", file, text);
        return Optional.empty();
    }

    /** Writes the record to {@code file}, replacing it atomically. */
    void write(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path next = file.resolveSibling(file.getFileName() + ".next");
            Files.writeString(next, pid + " " + startedAt + "\n", StandardCharsets.UTF_8);
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the pid file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The recorded process, if it still runs: same pid, same start time. */
    Optional<ProcessHandle> liveProcess() {
        return ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(process ->
                        process.info().startInstant().map(startedAt::equals).orElse(false));
    }
}
