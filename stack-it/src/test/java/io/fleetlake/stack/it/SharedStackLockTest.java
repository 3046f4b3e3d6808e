package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The shared stack's classes run one after the other today (no JUnit parallel mode), but the lock is what keeps them
 * from disturbing each other should parallel execution be turned on again, or a class run in another thread by a
 * tool. A class that joins the shared stack without it would then run beside another one, so this fails first.
 */
class SharedStackLockTest {
    @Test
    void everyClassOnTheSharedStackTakesItsLock() throws IOException, URISyntaxException, ClassNotFoundException {
        Path directory = Path.of(SharedStackLockTest.class
                        .getResource(SharedStackLockTest.class.getSimpleName() + ".class")
                        .toURI())
                .getParent();
        List<String> integrationTests;
        try (Stream<Path> files = Files.list(directory)) {
            integrationTests = files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith("IT.class"))
                    .map(name -> name.substring(0, name.length() - ".class".length()))
                    .toList();
        }
        assertThat(integrationTests).contains("PipelineEndToEndIT");

        for (String name : integrationTests) {
            Class<?> test = Class.forName(SharedStackLockTest.class.getPackageName() + "." + name);
            ExtendWith extensions = test.getAnnotation(ExtendWith.class);
            boolean onSharedStack =
                    extensions != null && Arrays.asList(extensions.value()).contains(SharedStack.class);
            boolean locked = Arrays.stream(test.getAnnotationsByType(ResourceLock.class))
                    .anyMatch(lock -> lock.value().equals(SharedStack.LOCK));
            assertThat(locked)
                    .as(
                            "%s %s the shared stack, so it must hold @ResourceLock(SharedStack.LOCK) exactly then",
                            name, onSharedStack ? "uses" : "does not use")
                    .isEqualTo(onSharedStack);
        }
    }
}
