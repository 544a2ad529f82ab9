package io.outboxrelay.support;

import io.outboxrelay.support.Api.Answer;
import jakarta.json.JsonObject;

import static org.assertj.core.api.Assertions.assertThat;

/** What every error answer must look like: a problem document with the status, and no Java internals. */
public final class Problems {

    private Problems() {
    }

    public static void assertProblem(Answer answer, int status) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        JsonObject problem = answer.json();
        assertThat(problem.getInt("status")).isEqualTo(status);
        assertThat(problem.getString("title")).isNotBlank();
        assertThat(answer.body()).doesNotContain("Exception", "at io.", "at java.", "org.postgresql", "SQL");
    }
}
