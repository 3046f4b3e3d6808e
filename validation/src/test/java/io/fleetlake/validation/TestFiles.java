package io.fleetlake.validation;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

final class TestFiles {
    private TestFiles() {}

    /** A test resource of this package as a file. */
    static Path resource(String name) {
        URL url = TestFiles.class.getResource(name);
        if (url == null) {
            throw new IllegalStateException("Test resource " + name + " is missing");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Test resource " + name + " has no file path", e);
        }
    }
}
