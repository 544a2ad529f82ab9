package io.outboxrelay.console.security.boundary;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CrossSiteWritesTest {

    @Test
    void programsThatNameNoOriginAndPagesOfThisSiteMayWrite() {
        assertThat(CrossSiteWrites.crossSite(null, null, "127.0.0.1:9080")).isNull();
        assertThat(CrossSiteWrites.crossSite("same-origin", "http://127.0.0.1:9080", "127.0.0.1:9080")).isNull();
        assertThat(CrossSiteWrites.crossSite("none", null, "relay.example.com")).isNull();
        assertThat(CrossSiteWrites.crossSite(null, "https://Relay.Example.com", "relay.example.com")).isNull();
        assertThat(CrossSiteWrites.crossSite(null, "https://relay.example.com", "relay.example.com:443")).isNull();
    }

    @Test
    void pagesOfOtherSitesOrOriginsMayNot() {
        assertThat(CrossSiteWrites.crossSite("cross-site", null, "127.0.0.1:9080")).contains("another site");
        assertThat(CrossSiteWrites.crossSite("same-site", null, "127.0.0.1:9080")).contains("another site");
        assertThat(CrossSiteWrites.crossSite(null, "http://evil.example", "127.0.0.1:9080")).contains("another origin");
        assertThat(CrossSiteWrites.crossSite(null, "http://127.0.0.1:9081", "127.0.0.1:9080")).isNotNull();
        assertThat(CrossSiteWrites.crossSite(null, "http://127.0.0.1", "127.0.0.1:9080")).isNotNull();
        assertThat(CrossSiteWrites.crossSite(null, "null", "127.0.0.1:9080")).as("a sandboxed page").isNotNull();
        assertThat(CrossSiteWrites.crossSite(null, "http://127.0.0.1:9080", null)).isNotNull();
        assertThat(CrossSiteWrites.crossSite(null, "::garbage::", "127.0.0.1:9080")).isNotNull();
    }

    @Test
    void onlyJsonIsAcceptedAsAChange() {
        assertThat(CrossSiteWrites.isJson("application/json")).isTrue();
        assertThat(CrossSiteWrites.isJson("Application/JSON; charset=UTF-8")).isTrue();
        assertThat(CrossSiteWrites.isJson(null)).isFalse();
        assertThat(CrossSiteWrites.isJson("text/plain")).isFalse();
        assertThat(CrossSiteWrites.isJson("application/x-www-form-urlencoded")).isFalse();
        assertThat(CrossSiteWrites.isJson("multipart/form-data; boundary=application/json")).isFalse();
        assertThat(CrossSiteWrites.isJson("text/plain; a=application/json")).isFalse();
    }
}
