package io.outboxrelay.support;

import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

/**
 * A real, headless Chromium driven by Selenium through the system's chromedriver (Debian
 * packages {@code chromium} and {@code chromium-driver}). Without them the browser tests fail
 * with a message that says what to install; they are never skipped.
 */
public final class Browser implements AutoCloseable {

    private static final Path CHROMIUM = Path.of(System.getProperty("it.chromium", "/usr/bin/chromium"));
    private static final Path CHROMEDRIVER = Path.of(System.getProperty("it.chromedriver", "/usr/bin/chromedriver"));
    private static final Path SCREENSHOTS = Path.of(System.getProperty("it.screenshots.dir", "target/screenshots"));
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private final WebDriver driver;
    private final Path profile;

    public Browser() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("The browser tests need Chromium and its driver at " + CHROMIUM + " and "
                    + CHROMEDRIVER + ": install the Debian packages chromium and chromium-driver (.ci/run does).");
        }
        try {
            profile = Files.createTempDirectory("outbox-relay-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,900", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
    }

    public void open(String path) {
        driver.get(Api.BASE_URL + path);
    }

    public WebElement find(By by) {
        return new WebDriverWait(driver, DEADLINE).until(ExpectedConditions.visibilityOfElementLocated(by));
    }

    public void awaitText(By by, String text) {
        new WebDriverWait(driver, DEADLINE).until(ExpectedConditions.textToBePresentInElementLocated(by, text));
    }

    public WebDriver driver() {
        return driver;
    }

    public String currentPath() {
        return driver.getCurrentUrl().substring(Api.BASE_URL.length());
    }

    /** Saves what the browser shows as {@code <name>.png} among the test artifacts. */
    public void screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Files.copy(shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a leftover temporary profile is harmless
        }
    }
}
