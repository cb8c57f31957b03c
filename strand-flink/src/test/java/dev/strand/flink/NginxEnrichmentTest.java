package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.strand.Request;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.Payloads;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Enrichment against a real nginx (bin/test starts it and sets {@code STRAND_NGINX_URL}): every record
 * gets the whole file it asked for, keep-alive connections shared by a subtask's requests. Skipped when
 * no nginx is configured, except on CI, where that is an error.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(NettyLeakDetectorExtension.class)
class NginxEnrichmentTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = FlinkTestCluster.extension();

  private static String nginx() {
    String url = System.getenv("STRAND_NGINX_URL");
    if (url == null || url.isBlank()) {
      if ("true".equals(System.getenv("CI"))) {
        fail("STRAND_NGINX_URL is not set on CI: run the tests through bin/test, which starts nginx");
      }
      Assumptions.abort("STRAND_NGINX_URL is not set: no nginx to test against (bin/test starts one)");
    }
    return url;
  }

  @Test
  void everyRecordGetsTheFileItAskedFor() throws Exception {
    String nginx = nginx();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(FlinkTestCluster.PARALLELISM);
    List<Integer> records = IntStream.range(0, 300).boxed().toList();
    StrandAsyncFunction<Integer, String> fetch = StrandAsyncFunction.builder(
            HttpSettings.builder().baseUrl(nginx).poolSize(10).build(),
            (Integer i) -> Request.get(i % 2 == 0 ? "/small.json" : "/big.bin"),
            (Integer i, dev.strand.Response r) -> i + ":" + r.status() + ":" + matches(i, r.bytes()))
        .outputType(Types.STRING)
        .build();
    DataStream<String> out = AsyncDataStream.unorderedWait(env.fromData(records).rebalance(), fetch, 30,
        TimeUnit.SECONDS, 10);

    List<String> got = Jobs.collect(out);

    assertEquals(records.stream().map(i -> i + ":200:true").sorted().toList(), got.stream().sorted().toList());
  }

  private static boolean matches(int record, byte[] body) {
    return Arrays.equals(record % 2 == 0 ? Payloads.SMALL : Payloads.BIG, body);
  }
}
