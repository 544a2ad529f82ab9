package io.outboxrelay.console;

import io.outboxrelay.support.Api;
import io.outboxrelay.support.Api.Answer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API documents a client generator would be given, as the running server serves them, pass a standard
 * OpenAPI linter (Redocly CLI, its recommended rules) with neither errors nor warnings: /openapi with the
 * operator API only, and the sample's own document for its orders API.
 */
class OpenApiLintIT {

    /** Pinned, so that a new rule in a later release does not change what this build checks. */
    private static final String LINTER = "@redocly/cli@2.77.0";

    @Test
    void theOperatorApisDocumentLintsClean() throws Exception {
        Answer document = Api.get("/openapi?format=JSON");
        assertThat(document.status()).isEqualTo(200);
        assertThat(document.body()).contains("/outbox/api/events", "securitySchemes")
                .as("the sample's API has its own document").doesNotContain("/api/orders");
        assertLintsClean(save("operator-openapi.json", document.body()));
    }

    @Test
    void theSamplesOwnDocumentIsServedAndLintsClean() throws Exception {
        Answer document = Api.get("/api-docs/orders-openapi.json");
        assertThat(document.status()).isEqualTo(200);
        assertLintsClean(save("orders-openapi.json", document.body()));
    }

    private static Path save(String name, String body) throws IOException {
        Path file = Path.of("target", "openapi", name).toAbsolutePath();
        Files.createDirectories(file.getParent());
        Files.writeString(file, body, StandardCharsets.UTF_8);
        return file;
    }

    private static void assertLintsClean(Path document) throws Exception {
        Path output = document.resolveSibling(document.getFileName() + ".lint.txt");
        Process lint = new ProcessBuilder("npx", "--yes", LINTER, "lint", document.toString())
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean finished = lint.waitFor(5, TimeUnit.MINUTES);
        if (!finished) {
            lint.destroyForcibly();
        }
        String report = Files.readString(output);
        assertThat(finished).as("the linter finished; its output:\n" + report).isTrue();
        assertThat(lint.exitValue()).as(report).isZero();
        assertThat(report).as("neither errors nor warnings").contains("Your API description is valid")
                .doesNotContainPattern("You have \\d+ warnings?");
    }
}
