package io.fleetlake.operations.dlq;

import java.io.IOException;
import java.nio.file.Path;

/** A second process for {@link ReprocessLockTest}: takes the lock, says so, and holds it until stdin closes. */
public final class ReprocessLockHolder {
    private ReprocessLockHolder() {}

    public static void main(String[] args) throws IOException {
        try (ReprocessLock lock = ReprocessLock.acquire(Path.of(args[0]), "reprocessing reasons [OUTSIDE_REGION]")) {
            System.out.println("LOCKED " + ProcessHandle.current().pid());
            System.out.flush();
            while (System.in.read() >= 0) {
                // holds the lock until the test closes stdin or kills this process
            }
        }
    }
}
