package io.fleetlake.simulator.model;

/**
 * Derives independent, reproducible random values from the fleet seed. Used where a value must not depend on the order
 * in which questions are asked, for example the measurement noise of one fix.
 */
final class SeedMixer {
    private SeedMixer() {}

    /** The SplitMix64 finaliser: a bijection that spreads every input bit over the whole output. */
    static long mix(long value) {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    static long mix(long first, long second) {
        return mix(mix(first) + second);
    }

    static long mix(long first, long second, long third) {
        return mix(mix(first, second) + third);
    }

    /** A uniform value in [0, 1) determined by the inputs. */
    static double unit(long first, long second, long third) {
        return (mix(first, second, third) >>> 11) * 0x1.0p-53;
    }
}
