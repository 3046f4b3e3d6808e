package io.fleetlake.identity;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Files that hold secrets (registries, keys, generated credentials): folders of mode 0700 and files of mode 0600,
 * created with those modes rather than changed afterwards, so that no other user can read them even for a moment.
 */
public final class OwnerOnlyFiles {
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> FOLDER = PosixFilePermissions.fromString("rwx------");

    private OwnerOnlyFiles() {}

    /** Creates {@code folder} (and its parents) with mode 0700 if it does not exist. */
    public static void createFolder(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            Files.createDirectories(folder.toAbsolutePath().getParent());
            try {
                Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(FOLDER));
            } catch (FileAlreadyExistsException e) {
                // Created meanwhile by another process: fine, it is a folder.
            }
        }
    }

    /**
     * Replaces {@code file} with {@code content}, mode 0600: written beside it and moved into place, so that a reader
     * never sees half a file.
     */
    public static void write(Path file, byte[] content) throws IOException {
        createFolder(file.toAbsolutePath().getParent());
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(temporary);
        Files.createFile(temporary, PosixFilePermissions.asFileAttribute(FILE));
        Files.write(temporary, content, StandardOpenOption.TRUNCATE_EXISTING);
        try {
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
