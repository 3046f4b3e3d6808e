package io.fleetlake.stack.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Headless Chromium for browser tests, from the machine's packages: {@code CHROME_BINARY} and {@code CHROMEDRIVER}
 * when set, otherwise Debian's {@code /usr/bin/chromium} and {@code /usr/bin/chromedriver}. When either is missing the
 * test fails with the command that installs them; .ci/run installs them before the tests.
 */
final class HeadlessChromium {
    private static final List<String> BROWSERS =
            List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome");
    private static final List<String> DRIVERS = List.of("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver");

    private HeadlessChromium() {}

    static WebDriver start() {
        Path browser = locate("CHROME_BINARY", BROWSERS, "chromium");
        Path driver = locate("CHROMEDRIVER", DRIVERS, "chromium-driver");
        ChromeOptions options = new ChromeOptions()
                .setBinary(browser.toFile())
                // The machine's network is closed: background networking only produces refused connections.
                .addArguments(
                        "--headless=new",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-dev-shm-usage",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                        "--no-first-run",
                        "--window-size=1280,800");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driver.toFile())
                .build();
        return new ChromeDriver(service, options);
    }

    private static Path locate(String variable, List<String> candidates, String debianPackage) {
        Optional<Path> found = Stream.concat(Optional.ofNullable(System.getenv(variable)).stream(), candidates.stream())
                .map(Path::of)
                .filter(Files::isExecutable)
                .findFirst();
        return found.orElseThrow(() -> new IllegalStateException("The browser test needs " + debianPackage
                + ", which is not installed (looked at $" + variable + " and " + candidates + "). Install it with"
                + " `apt-get install -y chromium chromium-driver` (Debian) or set " + variable + "."));
    }
}
