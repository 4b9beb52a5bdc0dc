package com.telemed.testkit.browser;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

/**
 * A page's forms as a person uses them: a click or a key that sends one, then the wait until the
 * browser shows the answer (the document it left is gone and the new one is loaded), and the Tab key
 * as the only way to reach a field.
 */
public final class Forms {

    private static final Duration ANSWER = Duration.ofSeconds(30);
    private static final int MOST_TABS = 100;

    private Forms() {
    }

    /** Clicks {@code button} and waits for the page it leads to. */
    public static void click(WebDriver driver, By button) {
        WebElement left = driver.findElement(By.tagName("html"));
        driver.findElement(button).click();
        awaitNewPage(driver, left);
    }

    /** Presses Enter on the focused element and waits for the page it leads to. */
    public static void pressEnter(WebDriver driver) {
        WebElement left = driver.findElement(By.tagName("html"));
        new Actions(driver).sendKeys(Keys.ENTER).perform();
        awaitNewPage(driver, left);
    }

    /**
     * Presses Tab until the element {@code css} names has the focus (at most {@value #MOST_TABS} times):
     * the keyboard reaches it in the page's order. Fails when it never does.
     */
    public static WebElement tabTo(WebDriver driver, String css) {
        WebElement target = driver.findElement(By.cssSelector(css));
        for (int presses = 0; presses < MOST_TABS; presses++) {
            if (target.equals(driver.switchTo().activeElement())) {
                return target;
            }
            new Actions(driver).sendKeys(Keys.TAB).perform();
        }
        throw new AssertionError("Tab never reached " + css);
    }

    private static void awaitNewPage(WebDriver driver, WebElement left) {
        await("the form's answer").atMost(ANSWER).pollInterval(Duration.ofMillis(50)).until(() -> {
            try {
                left.getTagName();
                return false;
            } catch (StaleElementReferenceException gone) {
                return true;
            } catch (WebDriverException gone) {
                // Chromium's way of saying the same while the new document loads.
                return gone.getMessage() != null && gone.getMessage().contains("does not belong to the document");
            }
        });
        await("the page loaded").atMost(ANSWER).pollInterval(Duration.ofMillis(50)).until(() ->
                "complete".equals(((JavascriptExecutor) driver).executeScript("return document.readyState")));
    }
}
