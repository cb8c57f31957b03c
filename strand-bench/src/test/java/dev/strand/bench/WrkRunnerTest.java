package dev.strand.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class WrkRunnerTest {

  static final String OUTPUT = """
      Running 3s test @ http://127.0.0.1:40123/small
        1 threads and 100 connections
        Thread Stats   Avg      Stdev     Max   +/- Stdev
          Latency     4.46ms  521.11us  12.94ms   86.46%
          Req/Sec    22.55k   1.10k   24.00k    80.00%
        Latency Distribution
           50%    4.38ms
           75%    4.63ms
           90%    4.96ms
           99%  812.00us
        67368 requests in 3.00s, 21.21MB read
        Non-2xx or 3xx responses: 2
        Socket errors: connect 0, read 1, write 0, timeout 3
      Requests/sec:  22452.03
      Transfer/sec:      7.07MB
      0m0.001s 0m0.002s
      0m1.250s 0m0.750s
      """;

  @Test
  void parsesThroughputLatencyErrorsAndCpu() {
    WrkRunner.Run r = WrkRunner.parse(OUTPUT);
    assertEquals(22452.03, r.rps(), 1e-9);
    assertEquals(67368, r.requests());
    assertEquals(3.0, r.seconds(), 1e-9);
    assertEquals(6, r.errors());
    assertEquals(4.38, r.p50Ms(), 1e-9);
    assertEquals(0.812, r.p99Ms(), 1e-9);
    assertEquals(2.0, r.cpuSeconds(), 1e-9);
  }
}
