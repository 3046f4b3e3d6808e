package io.fleetlake.operations.dlq;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets one {@code fleet dlq reprocess} run at a time per data folder: an exclusive lock on {@code
 * <data-dir>/locks/dlq-reprocess.lock}, whose content names the holder (process id, host, start time, selection).
 *
 * <p>The lock is the operating system's ({@code fcntl} through {@link FileChannel#tryLock()}): it belongs to the
 * holding process and ends with it, however it ends. A holder that crashed ({@code kill -9}, power loss) therefore
 * never blocks the next run; the next run finds its description still in the file (a clean release empties it),
 * takes the lock and logs that the previous run did not finish. That is safe because each batch of a run is one Kafka
 * transaction with its ledger entries: the crashed run's open transaction is aborted, and the next run skips what the
 * ledger already holds.
 *
 * <p>Runs against the same Kafka cluster from another data folder or machine are not excluded by this lock; the
 * reprocessor's fixed transactional id still fences them (the older run fails at its next commit and nothing is
 * written twice), but without this clear message.
 */
public final class ReprocessLock implements AutoCloseable {
    public static final String FILE_NAME = "dlq-reprocess.lock";
    private static final Logger LOG = LoggerFactory.getLogger(ReprocessLock.class);

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;
    private final Optional<String> unfinishedPredecessor;

    private ReprocessLock(Path file, FileChannel channel, FileLock lock, Optional<String> unfinishedPredecessor) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
        this.unfinishedPredecessor = unfinishedPredecessor;
    }

    /** The lock file of the data folder {@code dataDirectory}. */
    public static Path location(Path dataDirectory) {
        return dataDirectory.resolve("locks").resolve(FILE_NAME);
    }

    /**
     * Takes the lock or fails at once.
     *
     * @param what describes this run for the one that would wait on it, such as {@code "--reason OUTSIDE_REGION"}
     * @throws LockHeldException when another run holds it; the message names that run
     */
    public static ReprocessLock acquire(Path file, String what) {
        requireNonNull(file, "file is null");
        requireNonNull(what, "what is null");
        FileChannel channel = null;
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            channel = FileChannel.open(
                    file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException sameProcess) {
                lock = null;
            }
            if (lock == null) {
                String holder = read(channel);
                channel.close();
                throw new LockHeldException("Another `fleet dlq reprocess` is running on this data folder: "
                        + (holder.isBlank() ? "(it has not described itself yet)" : holder)
                        + ". Wait until it has finished, then run again; the ledger topic makes a second run"
                        + " republish only what the first did not. Lock: " + file);
            }
            Optional<String> predecessor = Optional.of(read(channel)).filter(text -> !text.isBlank());
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(describe(what).getBytes(StandardCharsets.UTF_8)), 0);
            channel.force(true);
            predecessor.ifPresent(previous -> LOG.warn(
                    "The previous `fleet dlq reprocess` did not finish ({}); its unfinished batch was rolled back,"
                            + " and this run republishes what it had not",
                    previous));
            return new ReprocessLock(file, channel, lock, predecessor);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new UncheckedIOException("Cannot lock " + file + ": " + e.getMessage(), e);
        }
    }

    /** The description a run that ended without releasing the lock left behind; empty after clean runs. */
    public Optional<String> unfinishedPredecessor() {
        return unfinishedPredecessor;
    }

    public Path file() {
        return file;
    }

    /** Empties the description and releases the lock. */
    @Override
    public void close() {
        try {
            channel.truncate(0);
            lock.release();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot release " + file + ": " + e.getMessage(), e);
        } finally {
            closeQuietly(channel);
        }
    }

    private static String describe(String what) {
        return "pid " + ProcessHandle.current().pid() + " on " + hostName() + ", started " + Instant.now() + ", "
                + what;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "an unknown host";
        }
    }

    private static String read(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(channel.size(), 4096));
        channel.read(buffer, 0);
        return new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).trim();
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                LOG.debug("Closing a lock file failed", e);
            }
        }
    }

    /** Another run holds the lock. */
    public static final class LockHeldException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public LockHeldException(String message) {
            super(message);
        }
    }
}
