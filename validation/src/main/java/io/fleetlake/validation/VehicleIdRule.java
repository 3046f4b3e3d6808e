package io.fleetlake.validation;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.regex.Pattern;

/**
 * Whether a vehicle id has the configured format. The default format is checked character by character, because it is
 * checked for every record and a regular expression allocates a matcher per call; any other pattern is matched as a
 * regular expression.
 */
final class VehicleIdRule implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final int DEFAULT_MAX_LENGTH = 64;

    private final Pattern pattern;
    private final boolean isDefault;

    private VehicleIdRule(Pattern pattern, boolean isDefault) {
        this.pattern = pattern;
        this.isDefault = isDefault;
    }

    static VehicleIdRule of(Pattern pattern) {
        requireNonNull(pattern, "pattern is null");
        return new VehicleIdRule(pattern, pattern.pattern().equals(ValidationRules.DEFAULT_VEHICLE_ID_PATTERN));
    }

    boolean matches(String vehicleId) {
        if (!isDefault) {
            return pattern.matcher(vehicleId).matches();
        }
        int length = vehicleId.length();
        if (length < 1 || length > DEFAULT_MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = vehicleId.charAt(i);
            boolean allowed = (c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9')
                    || c == '.'
                    || c == '_'
                    || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }
}
