package io.fleetlake.stack.cli;

import io.fleetlake.stack.process.FleetHome;
import picocli.CommandLine.IVersionProvider;

/** The project version, as built. */
public final class FleetVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"fleet " + FleetHome.projectVersion()};
    }
}
