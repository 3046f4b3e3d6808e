package io.fleetlake.common.process;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A launcher for {@link ChildProcessTest}, in a JVM of its own so that the test can kill it: starts {@code sleep 600}
 * as a child process from a thread that then ends, prints {@link #STARTED} and waits to be killed.
 */
final class LauncherFixture {
    static final String STARTED = "child started";

    private LauncherFixture() {}

    public static void main(String[] arguments) throws InterruptedException {
        Path directory = Path.of(arguments[0]);
        Thread starter = new Thread(() -> ChildProcess.start(
                "sleeper",
                List.of("sleep", "600"),
                directory,
                Map.of(),
                directory.resolve("sleeper.log"),
                Optional.of(directory.resolve("sleeper.pid"))));
        starter.start();
        starter.join();
        System.out.println(STARTED);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
