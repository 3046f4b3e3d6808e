package io.fleetlake.common.process;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * The log file of a server process that is started again and again on the same data folder: every start appends to it
 * (the log of a crash is still there when someone looks for it), after a line that marks where the run begins, and a
 * file that has grown beyond a size is rotated first ({@code x.log} becomes {@code x.log.1}, {@code x.log.1} becomes
 * {@code x.log.2}, ..., the oldest is dropped), so that a crash loop cannot fill the disk. Nothing is ever truncated.
 */
public final class LogFiles {
    /** How every start marker line begins; readers of the log use it to find where the current run starts. */
    public static final String START_MARKER = "==== fleet launcher: ";
    /** Size beyond which a log file is rotated at the next start. */
    public static final long DEFAULT_ROTATE_BYTES = 64L * 1024 * 1024;
    /** Rotated files kept next to the current one. */
    public static final int DEFAULT_KEPT_FILES = 3;

    private LogFiles() {}

    /**
     * Prepares {@code logFile} for a new run of {@code component} with the default limits: rotates it when it is larger
     * than {@link #DEFAULT_ROTATE_BYTES}, then appends a start marker line.
     */
    public static void beginRun(Path logFile, String component) {
        beginRun(logFile, component, DEFAULT_ROTATE_BYTES, DEFAULT_KEPT_FILES, Instant.now());
    }

    /**
     * As {@link #beginRun(Path, String)} with explicit limits and time.
     *
     * @param rotateBytes a file larger than this is rotated before the marker is written
     * @param keptFiles rotated files kept ({@code .1} is the newest); at least 1
     */
    public static void beginRun(Path logFile, String component, long rotateBytes, int keptFiles, Instant now) {
        requireNonNull(logFile, "logFile is null");
        requireNonNull(component, "component is null");
        requireNonNull(now, "now is null");
        if (keptFiles < 1) {
            throw new IllegalArgumentException("keptFiles must be at least 1, got " + keptFiles);
        }
        try {
            Path parent = logFile.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            if (Files.isRegularFile(logFile) && Files.size(logFile) > rotateBytes) {
                rotate(logFile, keptFiles);
            }
            Files.writeString(
                    logFile,
                    startMarker(component, now) + System.lineSeparator(),
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot prepare the log file " + logFile + ": " + e.getMessage(), e);
        }
    }

    /** The marker line written before a run of {@code component} starts. */
    public static String startMarker(String component, Instant now) {
        return START_MARKER + "starting " + component + " at " + now + " ====";
    }

    /** True for a line {@link #beginRun} wrote. */
    public static boolean isStartMarker(String line) {
        return line.startsWith(START_MARKER);
    }

    /** The rotated file number {@code index} of {@code logFile}: {@code x.log.1} is the newest. */
    public static Path rotated(Path logFile, int index) {
        return logFile.resolveSibling(logFile.getFileName() + "." + index);
    }

    private static void rotate(Path logFile, int keptFiles) throws IOException {
        Files.deleteIfExists(rotated(logFile, keptFiles));
        for (int index = keptFiles - 1; index >= 1; index--) {
            Path older = rotated(logFile, index);
            if (Files.exists(older)) {
                Files.move(older, rotated(logFile, index + 1), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Files.move(logFile, rotated(logFile, 1), StandardCopyOption.REPLACE_EXISTING);
    }
}
