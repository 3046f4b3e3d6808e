package io.fleetlake.stack.process;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The command line of a component that runs in its own JVM. */
public record JavaCommand(
        Path javaHome, List<String> jvmOptions, List<Path> classpath, String mainClass, List<String> arguments) {
    public JavaCommand {
        requireNonNull(javaHome, "javaHome is null");
        jvmOptions = List.copyOf(requireNonNull(jvmOptions, "jvmOptions is null"));
        classpath = List.copyOf(requireNonNull(classpath, "classpath is null"));
        requireNonNull(mainClass, "mainClass is null");
        arguments = List.copyOf(requireNonNull(arguments, "arguments is null"));
    }

    /** The JVM that runs the launcher; components share its Java version. */
    public static Path currentJavaHome() {
        return Path.of(System.getProperty("java.home"));
    }

    public List<String> toCommandLine() {
        List<String> command = new ArrayList<>();
        command.add(javaHome.resolve("bin").resolve("java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classpath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
        command.add(mainClass);
        command.addAll(arguments);
        return command;
    }
}
