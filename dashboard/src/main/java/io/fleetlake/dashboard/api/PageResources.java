package io.fleetlake.dashboard.api;

import static java.util.Objects.requireNonNull;

import io.fleetlake.dashboard.http.Reply;
import io.fleetlake.http.RouteRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The page and what it loads, read from the class path once: {@code /} (HTML), {@code /dashboard.js}, {@code
 * /dashboard.css}, and {@code /region.geojson}, the operating region outline the validation module ships.
 */
final class PageResources {
    static final String REGION_RESOURCE = "/io/fleetlake/validation/iberia-operating-region.geojson";
    private static final String PAGE_FOLDER = "/dashboard/";

    private final Reply page;
    private final Reply script;
    private final Reply styles;
    private final Reply region;

    private PageResources(Reply page, Reply script, Reply styles, Reply region) {
        this.page = page;
        this.script = script;
        this.styles = styles;
        this.region = region;
    }

    /** @throws IllegalStateException when a resource is missing from the class path */
    static PageResources load() {
        return new PageResources(
                Reply.text("text/html; charset=utf-8", read(PAGE_FOLDER + "index.html")),
                Reply.text("text/javascript; charset=utf-8", read(PAGE_FOLDER + "dashboard.js")),
                Reply.text("text/css; charset=utf-8", read(PAGE_FOLDER + "dashboard.css")),
                Reply.text("application/geo+json; charset=utf-8", read(REGION_RESOURCE)));
    }

    Reply page(RouteRequest request) {
        return page;
    }

    Reply script(RouteRequest request) {
        return script;
    }

    Reply styles(RouteRequest request) {
        return styles;
    }

    Reply region(RouteRequest request) {
        return region;
    }

    private static String read(String resource) {
        requireNonNull(resource, "resource is null");
        try (InputStream in = PageResources.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Resource " + resource + " is missing from the class path: the"
                        + " dashboard jar or the validation jar is incomplete");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read resource " + resource, e);
        }
    }
}
