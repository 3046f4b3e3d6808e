package io.fleetlake.stack;

import io.fleetlake.stack.EmbeddedStack.StackException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The lock that makes one launcher at a time run the stack of a data folder. It is the operating system's lock on a
 * file ({@link FileChannel#tryLock()}), so it ends with the process that holds it, however that process ends: a launcher
 * killed with {@code kill -9} leaves nothing to clean up. The file holds the holder's pid, for the message that refuses
 * a second launcher.
 */
final class LauncherLock implements AutoCloseable {
    static final String FILE_NAME = "launcher.lock";

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;

    private LauncherLock(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /** The lock file of the stack whose data folder is {@code dataDirectory}. */
    static Path location(Path dataDirectory) {
        return dataDirectory.resolve(FILE_NAME);
    }

    /**
     * Takes the lock.
     *
     * @throws StackException when another launcher holds it, naming that launcher's pid
     */
    static LauncherLock acquire(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            FileChannel channel = FileChannel.open(
                    file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException sameProcess) {
                lock = null;
            }
            if (lock == null) {
                Optional<String> holder = holderPid(channel);
                channel.close();
                throw new StackException("Another launcher"
                        + holder.map(pid -> " (pid " + pid + ")").orElse("")
                        + " runs the stack of the data folder "
                        + file.toAbsolutePath().getParent()
                        + ": stop it first (Ctrl-C in its terminal"
                        + holder.map(pid -> ", or kill " + pid).orElse("")
                        + "), or give this one another stack.data-dir");
            }
            channel.truncate(0);
            channel.write(
                    ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
            channel.force(false);
            return new LauncherLock(file, channel, lock);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot lock " + file + ": " + e.getMessage(), e);
        }
    }

    private static Optional<String> holderPid(FileChannel channel) throws IOException {
        ByteBuffer content = ByteBuffer.allocate(32);
        channel.read(content, 0);
        String pid = new String(content.array(), 0, content.position(), StandardCharsets.US_ASCII).trim();
        return pid.matches("\\d+") ? Optional.of(pid) : Optional.empty();
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot release the lock " + file + ": " + e.getMessage(), e);
        }
    }
}
