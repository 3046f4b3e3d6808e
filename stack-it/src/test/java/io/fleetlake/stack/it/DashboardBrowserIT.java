package io.fleetlake.stack.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fleetlake.identity.dashboard.DashboardOperators;
import io.fleetlake.model.Position;
import io.fleetlake.model.RedisKeys;
import io.fleetlake.model.RedisKeys.VehicleField;
import io.fleetlake.model.Tables;
import io.fleetlake.model.codec.PayloadFormat;
import io.fleetlake.model.trino.TrinoUser;
import io.fleetlake.operations.inspect.TrinoInspector;
import io.fleetlake.redis.RedisConnections;
import io.fleetlake.redis.RedisRole;
import io.fleetlake.stack.identity.StackDashboardIdentity;
import io.fleetlake.stack.it.SharedStack.RunningStack;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import redis.clients.jedis.Jedis;

/**
 * The operations page in a real browser (headless Chromium) against the real stack: it shows the vehicles Redis holds,
 * reflects a change in Redis within two polling intervals, and in replay mode shows where a vehicle was at a past
 * instant although it has moved since.
 */
@ExtendWith(SharedStack.class)
@ResourceLock(SharedStack.LOCK)
class DashboardBrowserIT {
    private static final Duration POLL_INTERVAL = Duration.ofSeconds(2);
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private WebDriver browser;

    @BeforeEach
    void openBrowser() {
        browser = HeadlessChromium.start();
    }

    @AfterEach
    void closeBrowser() {
        browser.quit();
    }

    @Test
    void pageShowsRedisStateFollowsChangesAndReplaysThePast(RunningStack running) throws Exception {
        String vehicle = "DSH-01";
        Instant then = Instant.now().minus(3, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        Instant now = then.plus(2, ChronoUnit.MINUTES);
        Position earlier = Position.of(vehicle, then, 40.4168, -3.7038, 30.0, 90.0);
        try (TestPublisher publisher = TestPublisher.connect(running.settings(), "dashboard-test")) {
            publisher.publish(earlier, PayloadFormat.AVRO);
            publisher.awaitAcknowledgements();
            TrinoInspector trino = new TrinoInspector(running.settings().trino(TrinoUser.MONITOR));
            await().atMost(Duration.ofMinutes(3))
                    .pollInterval(Duration.ofSeconds(2))
                    .until(() -> !trino.query(
                                    "SELECT 1 FROM " + Tables.qualified(Tables.POSITIONS) + " WHERE vehicle_id = ?",
                                    vehicle)
                            .isEmpty());
            // Two minutes later it is 1.4 km further on.
            publisher.publish(Position.of(vehicle, now, 40.4268, -3.6938, 30.0, 45.0), PayloadFormat.AVRO);
            publisher.awaitAcknowledgements();
        }
        try (Jedis redis = RedisConnections.single(
                URI.create(running.settings().redisUri(RedisRole.ADMIN)), RedisConnections.DEFAULT_TIMEOUT)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> Long.toString(now.toEpochMilli())
                    .equals(redis.hget(RedisKeys.vehicle(vehicle), VehicleField.EVENT_TIME.field())));

            signIn(running);
            browser.get(running.settings().dashboardUri() + "/");
            long vehiclesInRedis = redis.zcard(RedisKeys.LAST_SEEN);
            await().atMost(POLL_INTERVAL.multipliedBy(5))
                    .untilAsserted(() -> assertThat(vehicleCount()).isEqualTo(vehiclesInRedis));
            assertThat(marker(vehicle).getAttribute("data-lat")).startsWith("40.4268");
            screenshot("dashboard-live.png");

            // A change in Redis (a newer fix of the vehicle) appears within two polling intervals.
            Instant newer = now.plusSeconds(10);
            redis.hset(
                    RedisKeys.vehicle(vehicle),
                    Map.of(
                            VehicleField.EVENT_TIME.field(), Long.toString(newer.toEpochMilli()),
                            VehicleField.LATITUDE.field(), "40.4300",
                            VehicleField.LONGITUDE.field(), "-3.6900"));
            long changedAt = System.nanoTime();
            await().atMost(POLL_INTERVAL.multipliedBy(2).plusMillis(500))
                    .untilAsserted(() ->
                            assertThat(marker(vehicle).getAttribute("data-lat")).startsWith("40.43"));
            assertThat(Duration.ofNanos(System.nanoTime() - changedAt))
                    .isLessThan(POLL_INTERVAL.multipliedBy(2).plusMillis(500));
        }

        // Replay: where was the vehicle a minute after the earlier fix? Still at the earlier position. The page reads
        // the datetime-local input in the browser's time zone, which the browser inherits from this JVM's.
        String instant = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss")
                .withZone(ZoneId.systemDefault())
                .format(then.plusSeconds(60));
        WebElement at = browser.findElement(By.id("replay-at"));
        ((JavascriptExecutor) browser)
                .executeScript(
                        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'));",
                        at,
                        instant);
        browser.findElement(By.id("replay-start")).click();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(browser.findElement(By.id("mode-banner")).getAttribute("data-mode"))
                    .isEqualTo("replay");
            assertThat(marker(vehicle).getAttribute("data-lat")).startsWith("40.4168");
        });
        assertThat(browser.findElement(By.id("mode-banner")).getText()).contains("REPLAY");
        screenshot("dashboard-replay.png");

        browser.findElement(By.id("back-to-live")).click();
        await().atMost(POLL_INTERVAL.multipliedBy(3)).untilAsserted(() -> {
            assertThat(browser.findElement(By.id("mode-banner")).getAttribute("data-mode"))
                    .isEqualTo("live");
            assertThat(marker(vehicle).getAttribute("data-lat")).startsWith("40.43");
        });
    }

    /** Signs in through the form as an operator would, with the password the stack generated for its data folder. */
    private void signIn(RunningStack running) {
        String password = StackDashboardIdentity.of(running.settings())
                .generatedPassword()
                .orElseThrow(() -> new AssertionError("The stack generated no dashboard password"));
        browser.get(running.settings().dashboardUri() + "/");
        // Without a session the page sends the browser to the sign-in form.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> browser.getCurrentUrl().endsWith("/sign-in"));
        browser.findElement(By.id("sign-in-user")).clear();
        browser.findElement(By.id("sign-in-user")).sendKeys(DashboardOperators.OPERATOR);
        browser.findElement(By.id("sign-in-password")).sendKeys(password);
        browser.findElement(By.id("sign-in-submit")).click();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !browser.findElements(By.id("vehicle-count")).isEmpty());
        // The page's script ran under the Content-Security-Policy: it fetched the session and enabled sign-out.
        await().atMost(Duration.ofSeconds(10))
                .until(() -> browser.findElement(By.id("sign-out")).isEnabled());
    }

    private long vehicleCount() {
        return Long.parseLong(browser.findElement(By.id("vehicle-count")).getAttribute("data-count"));
    }

    private WebElement marker(String vehicle) {
        List<WebElement> markers =
                browser.findElements(By.cssSelector("#markers .vehicle-marker[data-vehicle-id='" + vehicle + "']"));
        assertThat(markers).as("marker of %s", vehicle).hasSize(1);
        return markers.get(0);
    }

    private void screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path file = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(file, SCREENSHOTS.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
}
