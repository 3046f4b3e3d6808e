package io.fleetlake.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetlake.trino.JdkLocator.Jdk;
import io.fleetlake.trino.JdkLocator.SearchLocation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JdkLocatorTest {
    @TempDir
    Path root;

    @Test
    void configuredJavaHomeWins() throws IOException {
        Path configured = fakeJdk(root.resolve("configured"), "24.0.1");
        Path fromEnvironment = fakeJdk(root.resolve("environment"), "25.0.3");

        Jdk jdk = locator(Optional.of(configured), Map.of("TRINO_JAVA_HOME", fromEnvironment.toString()), List.of())
                .locate();

        assertThat(jdk).isEqualTo(new Jdk(configured, "24.0.1", 24));
        assertThat(jdk.javaExecutable()).isEqualTo(configured.resolve("bin/java"));
    }

    @Test
    void configuredJavaHomeThatIsTooOldIsAnError() throws IOException {
        Path configured = fakeJdk(root.resolve("jdk-17"), "17.0.15");
        Path usable = fakeJdk(root.resolve("jvm/jdk-25"), "25.0.3");

        assertThatThrownBy(() -> locator(
                                Optional.of(configured),
                                Map.of("TRINO_JAVA_HOME", usable.toString()),
                                List.of(new SearchLocation(root.resolve("jvm"), "", "")))
                        .locate())
                .isInstanceOf(TrinoServerException.class)
                .hasMessage("trino.java-home points to " + configured + ", which is Java 17.0.15, but Trino 476"
                        + " needs Java 24 or newer. Point trino.java-home at a JDK 24 or newer, or unset it to search"
                        + " TRINO_JAVA_HOME, JAVA_HOME and the usual folders.");
    }

    @Test
    void trinoJavaHomeComesNext() throws IOException {
        Path fromEnvironment = fakeJdk(root.resolve("environment"), "25.0.3");
        Path javaHome = fakeJdk(root.resolve("java-home"), "24.0.2");

        Jdk jdk = locator(
                        Optional.empty(),
                        Map.of("TRINO_JAVA_HOME", fromEnvironment.toString(), "JAVA_HOME", javaHome.toString()),
                        List.of())
                .locate();

        assertThat(jdk.home()).isEqualTo(fromEnvironment);
    }

    @Test
    void trinoJavaHomeThatIsNotAJdkIsAnError() {
        Path notAJdk = root.resolve("empty");

        assertThatThrownBy(() -> locator(Optional.empty(), Map.of("TRINO_JAVA_HOME", notAJdk.toString()), List.of())
                        .locate())
                .isInstanceOf(TrinoServerException.class)
                .hasMessageContaining("environment variable TRINO_JAVA_HOME points to " + notAJdk)
                .hasMessageContaining("not a JDK: no release file");
    }

    @Test
    void javaHomeIsUsedWhenNewEnough() throws IOException {
        Path javaHome = fakeJdk(root.resolve("java-home"), "24");
        fakeJdk(root.resolve("jvm/jdk-25"), "25.0.3");

        Jdk jdk = locator(
                        Optional.empty(),
                        Map.of("JAVA_HOME", javaHome.toString()),
                        List.of(new SearchLocation(root.resolve("jvm"), "", "")))
                .locate();

        assertThat(jdk).isEqualTo(new Jdk(javaHome, "24", 24));
    }

    @Test
    void oldJavaHomeIsSkippedInFavourOfTheUsualFolders() throws IOException {
        Path javaHome = fakeJdk(root.resolve("jvm/java-17-openjdk-amd64"), "17.0.15");
        Path temurin = fakeJdk(root.resolve("jvm/temurin-25-jdk-amd64"), "25.0.3");

        Jdk jdk = locator(
                        Optional.empty(),
                        Map.of("JAVA_HOME", javaHome.toString()),
                        List.of(new SearchLocation(root.resolve("jvm"), "", "")))
                .locate();

        assertThat(jdk).isEqualTo(new Jdk(temurin, "25.0.3", 25));
    }

    @Test
    void oldestSuitableFeatureReleaseAndItsNewestUpdateWin() throws IOException {
        fakeJdk(root.resolve("jvm/jdk-17"), "17.0.15");
        fakeJdk(root.resolve("jvm/jdk-25"), "25.0.3");
        fakeJdk(root.resolve("jvm/jdk-24.0.2"), "24.0.2");
        Path newestUpdate = fakeJdk(root.resolve("jvm/jdk-24.0.10"), "24.0.10");

        Jdk jdk = locator(Optional.empty(), Map.of(), List.of(new SearchLocation(root.resolve("jvm"), "", "")))
                .locate();

        assertThat(jdk.home()).isEqualTo(newestUpdate);
    }

    @Test
    void namePrefixAndSuffixSelectCandidates() throws IOException {
        fakeJdk(root.resolve("opt/zulu-25"), "25.0.1");
        Path jdk = fakeJdk(root.resolve("opt/jdk-24.0.1"), "24.0.1");
        Path macHome = fakeJdk(root.resolve("Library/temurin-25.jdk/Contents/Home"), "25.0.3");

        assertThat(locator(Optional.empty(), Map.of(), List.of(new SearchLocation(root.resolve("opt"), "jdk", "")))
                        .locate()
                        .home())
                .isEqualTo(jdk);
        assertThat(locator(
                                Optional.empty(),
                                Map.of(),
                                List.of(new SearchLocation(root.resolve("Library"), "", "Contents/Home")))
                        .locate()
                        .home())
                .isEqualTo(macHome);
    }

    @Test
    void symbolicLinksToTheSameJdkAreListedOnce() throws IOException {
        Path jdk = fakeJdk(root.resolve("jvm/java-17-openjdk-amd64"), "17.0.15");
        Files.createSymbolicLink(root.resolve("jvm/java-1.17.0-openjdk-amd64"), jdk);

        assertThat(new SearchLocation(root.resolve("jvm"), "", "").candidates())
                .containsExactly(root.resolve("jvm/java-1.17.0-openjdk-amd64"));
    }

    @Test
    void noSuitableJdkExplainsWhereItLookedAndWhatToDo() throws IOException {
        Path old = fakeJdk(root.resolve("jvm/java-17-openjdk-amd64"), "17.0.15");
        Files.createDirectories(root.resolve("jvm/openjdk-17"));
        Path empty = root.resolve("sdkman");

        assertThatThrownBy(() -> locator(
                                Optional.empty(),
                                Map.of("JAVA_HOME", old.toString()),
                                List.of(
                                        new SearchLocation(root.resolve("jvm"), "", ""),
                                        new SearchLocation(empty, "", "")))
                        .locate())
                .isInstanceOf(TrinoServerException.class)
                .hasMessage("Trino 476 needs Java 24 or newer, and no such JDK was found. Looked at:"
                        + " trino.java-home (not set); TRINO_JAVA_HOME (not set); JAVA_HOME=" + old
                        + " (Java 17.0.15); " + old + " (Java 17.0.15); " + root.resolve("jvm/openjdk-17")
                        + " (not a JDK: no release file); " + empty + "/* (nothing there). Install a JDK 24 or newer"
                        + " (for example Eclipse Temurin 24) and set the environment variable TRINO_JAVA_HOME (or"
                        + " trino.java-home) to its folder.");
    }

    @Test
    void folderWithoutExecutableJavaIsNotAJdk() throws IOException {
        Path home = fakeJdk(root.resolve("jvm/broken"), "25.0.3");
        Files.setPosixFilePermissions(home.resolve("bin/java"), PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(() -> locator(Optional.of(home), Map.of(), List.of()).locate())
                .hasMessageContaining("not a JDK: no executable bin/java");
    }

    @Test
    void featureVersionOfReleaseValues() {
        assertThat(JdkLocator.featureVersion("25.0.3")).contains(25);
        assertThat(JdkLocator.featureVersion("24")).contains(24);
        assertThat(JdkLocator.featureVersion("1.8.0_292")).contains(8);
        assertThat(JdkLocator.featureVersion("26-ea")).contains(26);
        assertThat(JdkLocator.featureVersion("unknown")).isEmpty();
    }

    @Test
    void versionsCompareNumberByNumber() {
        assertThat(JdkLocator.compareVersions("24.0.10", "24.0.2")).isPositive();
        assertThat(JdkLocator.compareVersions("24", "24.0.1")).isNegative();
        assertThat(JdkLocator.compareVersions("25.0.3", "25.0.3")).isZero();
    }

    @Test
    void usualFoldersAreSearched() {
        assertThat(SearchLocation.usual(Path.of("/home/fleet")).stream().map(SearchLocation::describe))
                .containsExactly(
                        "/usr/lib/jvm/*",
                        "/opt/java/*",
                        "/opt/jdk*",
                        "/home/fleet/.sdkman/candidates/java/*",
                        "/Library/Java/JavaVirtualMachines/*/Contents/Home");
    }

    private static JdkLocator locator(
            Optional<Path> configured, Map<String, String> environment, List<SearchLocation> locations) {
        return new JdkLocator(configured, environment, locations);
    }

    /** A folder that looks like a JDK: a release file and an executable bin/java. */
    private static Path fakeJdk(Path home, String version) throws IOException {
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(
                home.resolve("release"),
                "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"" + version + "\"\nJAVA_VERSION_DATE=\"2025-01-01\"\n");
        Path java = Files.writeString(home.resolve("bin/java"), "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return home;
    }
}
