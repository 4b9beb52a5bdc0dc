package com.telemed.web.console.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/** Production refuses to start without the console's session key, with its development value, or with a short key. */
class ConsoleProductionSettingsTest {

    static List<String> refusals(String key) {
        Config config = new SmallRyeConfigBuilder().withSources(new PropertiesConfigSource(Map.of("web.console.session-key", key), "test", 100))
                .build();
        return new ConsoleProductionSettings().sessionKey().refusals(config);
    }

    @Test
    void theKeyIsRequiredNeitherTheDevelopmentOneNorShort() {
        assertEquals(List.of("web.console.session-key (WEB_CONSOLE_SESSION_KEY) is not set"), refusals(" "));
        assertEquals(List.of("web.console.session-key (WEB_CONSOLE_SESSION_KEY) is the development value"),
                refusals(ConsoleProductionSettings.DEVELOPMENT_KEY));
        assertEquals(List.of("web.console.session-key (WEB_CONSOLE_SESSION_KEY) is the development value"),
                refusals("a-production-console-session-key-of-32-characters," + ConsoleProductionSettings.DEVELOPMENT_KEY));
        assertEquals(List.of("web.console.session-key (WEB_CONSOLE_SESSION_KEY) needs at least 32 characters in every key"),
                refusals("a-production-console-session-key-of-32-characters,short"));
        assertEquals(List.of(), refusals("a-production-console-session-key-of-32-characters, another-production-key-of-32-characters"));
    }
}
