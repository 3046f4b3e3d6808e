package io.fleetlake.validation;

import static java.util.Objects.requireNonNull;

import io.fleetlake.common.config.ConfigException;
import io.fleetlake.common.config.ConfigSource;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The configuration the rules are read from: the keys of the optional rules file ({@value ValidationRules#RULES_FILE}),
 * under the keys given directly (file, {@code FLEET_*} environment or {@code --set} of the component), which win. This
 * is how the pipeline and the reprocessing command share one rules file yet can still override a single rule.
 */
final class RulesFileLayer {
    private final ConfigSource direct;
    private final ConfigSource rulesFile;
    private final Optional<Path> rulesDirectory;

    private RulesFileLayer(ConfigSource direct, ConfigSource rulesFile, Optional<Path> rulesDirectory) {
        this.direct = direct;
        this.rulesFile = rulesFile;
        this.rulesDirectory = rulesDirectory;
    }

    /** @param ruleKeys the keys a rules file may hold; any other key there is refused as a likely typo */
    static RulesFileLayer load(ConfigSource direct, Set<String> ruleKeys) {
        requireNonNull(direct, "direct is null");
        Optional<Path> file = Optional.ofNullable(direct.path(ValidationRules.RULES_FILE, null))
                .map(Path::toAbsolutePath);
        if (file.isEmpty()) {
            return new RulesFileLayer(direct, ConfigSource.empty(), Optional.empty());
        }
        ConfigSource rules = ConfigSource.empty().withFile(file.get());
        Set<String> unknown = new TreeSet<>(rules.keys());
        unknown.removeAll(ruleKeys);
        if (!unknown.isEmpty()) {
            throw new ConfigException("Rules file " + file.get() + " (" + ValidationRules.RULES_FILE + ") holds unknown"
                    + " keys " + unknown + ": fix their spelling or remove them; a rules file may hold "
                    + new TreeSet<>(ruleKeys));
        }
        return new RulesFileLayer(direct, rules, file.map(Path::getParent));
    }

    /** The layer that decides the key: the direct configuration when it sets the key, else the rules file. */
    ConfigSource forKey(String key) {
        return direct.string(key).isPresent() ? direct : rulesFile;
    }

    /** A path setting; a relative path in the rules file is relative to the rules file's directory. */
    Optional<Path> path(String key) {
        ConfigSource layer = forKey(key);
        Optional<Path> path = Optional.ofNullable(layer.path(key, null));
        if (layer == rulesFile && rulesDirectory.isPresent()) {
            return path.map(rulesDirectory.get()::resolve);
        }
        return path;
    }
}
