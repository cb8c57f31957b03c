package dev.strand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ArgParserTest {
  @Test
  void defaultsToGetWithFiveSecondsAndCompression() throws Exception {
    Options o = ArgParser.parse(new String[] {"http://h/x"});
    assertEquals("http://h/x", o.url);
    assertEquals("GET", o.effectiveMethod());
    assertEquals(5.0, o.timeoutSeconds);
    assertTrue(o.compressed);
    assertFalse(o.location);
  }

  @Test
  void clusteredShortFlagsAndAttachedValues() throws Exception {
    Options o = ArgParser.parse(new String[] {"-sLiXQUERY", "-oout.bin", "u"});
    assertTrue(o.silent && o.location && o.include);
    assertEquals("QUERY", o.effectiveMethod());
    assertEquals("out.bin", o.output);
  }

  @Test
  void longOptionsWithEqualsAndRepeatables() throws Exception {
    Options o = ArgParser.parse(new String[] {"--timeout=2.5", "-H", "A: 1", "--header", "B: 2", "--url-query", "q=x y",
        "--param=n=1", "--max-redirs", "3", "--retry", "2", "--no-compressed", "--no-sessionid", "u"});
    assertEquals(2.5, o.timeoutSeconds);
    assertEquals(List.of("A: 1", "B: 2"), o.headers);
    assertEquals(List.of("q=x y", "n=1"), o.params);
    assertEquals(3, o.maxRedirects);
    assertEquals(2, o.retry);
    assertFalse(o.compressed);
    assertTrue(o.noSessionId);
  }

  @Test
  void bodyImpliesPostAndHeadImpliesHead() throws Exception {
    assertEquals("POST", ArgParser.parse(new String[] {"-d", "a=1", "u"}).effectiveMethod());
    assertEquals("POST", ArgParser.parse(new String[] {"--json", "{}", "u"}).effectiveMethod());
    assertEquals("POST", ArgParser.parse(new String[] {"-F", "a=1", "u"}).effectiveMethod());
    assertEquals("PUT", ArgParser.parse(new String[] {"-X", "PUT", "-d", "a", "u"}).effectiveMethod());
    assertEquals("HEAD", ArgParser.parse(new String[] {"-I", "u"}).effectiveMethod());
  }

  @Test
  void doubleDashAllowsAUrlThatLooksLikeAnOption() throws Exception {
    assertEquals("-weird", ArgParser.parse(new String[] {"--", "-weird"}).url);
  }

  @Test
  void helpAndVersionNeedNoUrl() throws Exception {
    assertTrue(ArgParser.parse(new String[] {"--help"}).help);
    assertTrue(ArgParser.parse(new String[] {"-V"}).version);
  }

  @Test
  void usageErrorsNameTheProblem() {
    assertUsage("no URL given");
    assertUsage("unknown option --bogus", "--bogus", "u");
    assertUsage("unknown option -y", "-sy", "u");
    assertUsage("option -X needs a value", "u", "-X");
    assertUsage("-C - needs -o FILE", "-C", "-", "u");
    assertUsage("--retry needs a whole number", "--retry", "-1", "u");
    assertUsage("--timeout needs a number of seconds", "--timeout", "soon", "u");
    assertUsage("is not \"Name: value\"", "-H", "NoColon", "u");
    assertUsage("is not name=value", "-F", "novalue", "u");
    assertUsage("USER:PASSWORD", "-u", "alice", "u");
    assertUsage("only one of", "-d", "a", "--json", "{}", "u");
    assertUsage("-I/--head sends no body", "-I", "-d", "a", "u");
    assertUsage("takes no value", "--silent=yes", "u");
  }

  @Test
  void proxyAuthenticationAndTlsFlagsAreParsed() throws Exception {
    Options o = ArgParser.parse(new String[] {"-x", "https://p:3129", "-U", "bob:pw", "--proxy-basic", "--proxy-digest",
        "--noproxy", "a.example,10.0.0.0/8", "--proxy-cacert", "ca.pem", "--proxy-insecure", "u"});
    assertEquals("bob:pw", o.proxyUser);
    assertEquals("digest", o.proxyAuth, "the last of --proxy-basic/digest/negotiate wins");
    assertEquals("a.example,10.0.0.0/8", o.noProxy);
    assertEquals("ca.pem", o.proxyCacert);
    assertTrue(o.proxyInsecure);
    assertEquals("bob:pw", ArgParser.parse(new String[] {"-Ubob:pw", "u"}).proxyUser);
    assertEquals("negotiate", ArgParser.parse(new String[] {"--proxy-negotiate", "u"}).proxyAuth, "no -U needed");
    assertTrue(ArgParser.parse(new String[] {"--negotiate", "u"}).negotiate);
    assertUsage("--proxy-digest needs -U/--proxy-user", "--proxy-digest", "u");
    assertUsage("-U/--proxy-user needs USER:PASSWORD", "-U", "bob", "u");
    assertUsage("--negotiate takes its credentials from Kerberos", "--negotiate", "-u", "a:b", "u");
  }

  @Test
  void streamsAndProxyFlagsAreParsedAndTheirClashesAreUsageErrors() throws Exception {
    Options o = ArgParser.parse(new String[] {"--ws", "-x", "http://p:3128", "--no-proxy-env", "u"});
    assertTrue(o.ws && o.noProxyEnv);
    assertEquals("http://p:3128", o.proxy);
    assertTrue(ArgParser.parse(new String[] {"--sse", "--json", "{}", "u"}).sse, "--sse may POST a body");
    assertFalse(ArgParser.parse(new String[] {"--sse", "u"}).timeoutGiven);
    assertTrue(ArgParser.parse(new String[] {"--sse", "--timeout", "2", "u"}).timeoutGiven);
    Options maxTime = ArgParser.parse(new String[] {"--sse", "-m", "2", "u"});
    assertFalse(maxTime.timeoutGiven, "-m is the whole transfer, not the phases");
    assertEquals(2.0, maxTime.maxTimeSeconds);
    assertUsage("drop --ws", "--sse", "--ws", "u");
    assertUsage("drop -d/--json/-F", "--ws", "-d", "x", "u");
    assertUsage("drop -X POST", "--ws", "-X", "POST", "u");
    assertUsage("drop -o/--output", "--ws", "-o", "f", "u");
  }

  private static void assertUsage(String expected, String... args) {
    UsageException e = assertThrows(UsageException.class, () -> ArgParser.parse(args));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
    assertEquals(2, e.exitCode());
  }

  @Test
  void cookieAndDigestOptions() throws UsageException {
    Options o = ArgParser.parse(new String[] {"-b", "in.txt", "--cookie", "a=1", "-c", "out.txt", "--digest", "-u", "u:p",
        "http://h/"});
    assertEquals(java.util.List.of("in.txt", "a=1"), o.cookies);
    assertEquals("out.txt", o.cookieJar);
    assertTrue(o.digest);
    assertEquals("a=1", RequestFactory.literalCookies(o.cookies));
    assertThrows(UsageException.class, () -> ArgParser.parse(new String[] {"--digest", "http://h/"}));
  }
}
