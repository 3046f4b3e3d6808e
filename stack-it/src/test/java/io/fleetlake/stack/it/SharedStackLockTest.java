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
 * The integration tests run two classes at a time; only the shared stack's lock keeps its classes from disturbing each
 * other. A class that joins the shared stack without it would run beside another one, so this fails first.
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
