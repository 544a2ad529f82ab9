package io.outboxrelay.relay.control;

import io.outboxrelay.relay.boundary.RelaySettings.Ordering;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** The claim's limits are written into its SQL (ClaimStatementsIT runs it on the database). */
class ClaimStatementTest {

    private static final String ARABIC_INDIC_500 = "\u0665\u0660\u0660";

    @Test
    void theLimitsAreWrittenInDigitsPostgreSqlReadsWhateverTheServersLocale() {
        Locale before = Locale.getDefault(Locale.Category.FORMAT);
        Locale.setDefault(Locale.Category.FORMAT, Locale.forLanguageTag("ar-EG")); // 500 in Arabic-Indic digits
        try {
            assertThat(RelayStore.claimStatement(Ordering.AGGREGATE, true, 4, Duration.ZERO, 500))
                    .contains("LIMIT 1000)", "LIMIT 500)", "place <= 4\n")
                    .doesNotContain("LIMIT ?", ARABIC_INDIC_500, "\u0664");
            assertThat(RelayStore.claimStatement(Ordering.NONE, false, 4, Duration.ofMinutes(1), 500))
                    .contains("LIMIT 500\n").doesNotContain("LIMIT ?", ARABIC_INDIC_500);
        } finally {
            Locale.setDefault(Locale.Category.FORMAT, before);
        }
    }
}
