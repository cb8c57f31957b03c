package dev.strand.internal.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** NO_PROXY matching: one row per (list, host, port, expected). */
class NoProxyTest {
  @ParameterizedTest(name = "{0} / {1}:{2} -> {3}")
  @CsvSource(delimiter = '|', textBlock = """
      ''                          | example.com     | 80   | false
      '*'                         | example.com     | 80   | true
      'example.com'               | example.com     | 80   | true
      'example.com'               | www.example.com | 80   | true
      'example.com'               | badexample.com  | 80   | false
      '.example.com'              | example.com     | 80   | true
      '.example.com'              | a.b.example.com | 443  | true
      '*.example.com'             | a.example.com   | 443  | true
      ' Example.COM , other.org ' | other.org       | 80   | true
      'example.com:8080'          | example.com     | 8080 | true
      'example.com:8080'          | example.com     | 80   | false
      'localhost'                 | localhost       | 8443 | true
      '127.0.0.1'                 | 127.0.0.1       | 80   | true
      '127.0.0.1'                 | 127.0.0.2       | 80   | false
      '127.0.0.1:9000'            | 127.0.0.1       | 9000 | true
      '127.0.0.1:9000'            | 127.0.0.1       | 9001 | false
      '10.0.0.0/8'                | 10.20.30.40     | 80   | true
      '10.0.0.0/8'                | 11.0.0.1        | 80   | false
      '192.168.1.0/25'            | 192.168.1.127   | 80   | true
      '192.168.1.0/25'            | 192.168.1.128   | 80   | false
      '10.0.0.0/8'                | ten.example     | 80   | false
      '::1'                       | [::1]           | 80   | true
      '[::1]'                     | [::1]           | 80   | true
      '[::1]:8080'                | [::1]           | 8080 | true
      '[::1]:8080'                | [::1]           | 80   | false
      'fe80::/10'                 | [fe80::1]       | 80   | true
      'fe80::/10'                 | [fe00::1]       | 80   | false
      'junk/8, 10.0.0.0/99'       | 10.0.0.1        | 80   | false
      """)
  void matches(String list, String host, int port, boolean expected) {
    assertEquals(expected, NoProxy.parse(list).matches(host, port));
  }
}
