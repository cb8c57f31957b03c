package dev.strand.flink.example;

import dev.strand.Request;
import dev.strand.Response;
import dev.strand.flink.HttpSettings;
import dev.strand.flink.HttpSinkEntry;
import dev.strand.flink.StrandAsyncFunction;
import dev.strand.flink.StrandHttpSink;
import dev.strand.flink.StrandRetryStrategy;
import dev.strand.flink.TimeoutPolicy;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The README's example: looks each id up with an HTTP GET (ordered, retried on connect failures, 429 and 503) and
 * posts the enriched lines to a collector.
 *
 * <p>Arguments: {@code LOOKUP_BASE_URL SINK_BASE_URL [COUNT]}, e.g.
 * {@code http://127.0.0.1:8080 http://127.0.0.1:9090 1000}.
 */
public final class EnrichAndSinkJob {

    private EnrichAndSinkJob() {
    }

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        build(env, args[0], args[1], args.length > 2 ? Long.parseLong(args[2]) : 1000);
        env.execute("strand enrich and sink");
    }

    /** Adds the job to {@code env}. */
    public static void build(StreamExecutionEnvironment env, String lookupUrl, String sinkUrl, long count) {
        int capacity = 100;
        StrandAsyncFunction<Long, String> lookup = StrandAsyncFunction.builder(
                        HttpSettings.builder().baseUrl(lookupUrl).poolSize(capacity).build(),
                        (Long id) -> Request.get("/echo?id=" + id),
                        (Long id, Response r) -> "{\"id\":" + id + ",\"status\":" + r.status() + "}")
                .outputType(Types.STRING)
                .timeoutPolicy(TimeoutPolicy.fallback(id -> "{\"id\":" + id + ",\"status\":null}"))
                .build();

        DataStream<String> enriched = AsyncDataStream.orderedWaitWithRetry(
                env.fromSequence(1, count), lookup, 10, TimeUnit.SECONDS, capacity,
                StrandRetryStrategy.<String>builder().maxRetries(3).build());

        enriched.sinkTo(StrandHttpSink.builder(
                        HttpSettings.of(sinkUrl),
                        (String line) -> HttpSinkEntry.postJson("/ingest", line))
                .maxBatchSize(20)
                .build());
    }
}
