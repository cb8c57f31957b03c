package dev.strand.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strand.Request;
import dev.strand.Response;
import dev.strand.Timeout;
import dev.strand.flink.HttpSettings;
import dev.strand.flink.StrandAsyncFunction;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * The child JVM of {@code bin/strand bench --flink}: one enrichment job on a local MiniCluster (parallelism P,
 * async capacity C per subtask, unordered) calling {@code GET URL} per record, with either Strand's
 * {@link StrandAsyncFunction} ({@code --function strand}; {@code strand-shared}: one client for all subtasks,
 * {@code HttpSettings.sharedClient}, its pool P × C) or an equivalent {@link RichAsyncFunction} around the JDK
 * HttpClient ({@code --function jdk}, what the community HTTP connector builds on). Each response is checked (status
 * 200, the expected body length) and counted by the sink; the job runs warm-up then K timed batches, cut from
 * continuous load, and is cancelled. One {@code RESULT <json>} line (a {@link Cell}) on stdout.
 *
 * <p>{@code --function strand|strand-shared|jdk --url U --expect-bytes B --parallelism P --capacity C --warmup S --duration S
 * --batches K}
 */
public final class FlinkBench {

    /** The MiniCluster runs in this JVM with its class loader: the sink counts into these. */
    static final LongAdder OK = new LongAdder();
    static final LongAdder BAD = new LongAdder();

    private FlinkBench() {
    }

    public static void main(String[] args) throws Exception {
        java.util.Map<String, String> o = new java.util.HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            o.put(args[i].substring(2), args[i + 1]);
        }
        String function = o.get("function");
        URI url = URI.create(o.get("url"));
        int expect = Integer.parseInt(o.get("expect-bytes"));
        int parallelism = Integer.parseInt(o.getOrDefault("parallelism", "2"));
        int capacity = Integer.parseInt(o.getOrDefault("capacity", "100"));
        Duration warmup = seconds(o.getOrDefault("warmup", "10"));
        Duration each = seconds(o.getOrDefault("duration", "3"));
        int batches = Integer.parseInt(o.getOrDefault("batches", "3"));
        long operatorTimeout = Long.parseLong(o.getOrDefault("operator-timeout", "30"));
        String name = "flink-" + function;
        Cell cell;
        try {
            cell = measure(name, function, url, expect, parallelism, capacity, warmup, each, batches,
                    operatorTimeout);
        } catch (Throwable t) {
            cell = Cell.failed(name, "java", "flink " + url.getPath(), parallelism * capacity, LoadLoop.describe(t));
        }
        System.out.println("RESULT " + new ObjectMapper().writeValueAsString(cell));
        ChildExit.halt();
    }

    private static StrandAsyncFunction<Long, Integer> strandFunction(URI url, HttpSettings.Builder settings) {
        return StrandAsyncFunction.builder(
                        settings.timeout(Timeout.of(Duration.ofSeconds(30))).build(),
                        new SameRequest(url.toString()),
                        (Long id, Response r) -> r.bytes().length)
                .passErrorStatuses(false)
                .outputType(Types.INT)
                .build();
    }

    static Cell measure(String name, String function, URI url, int expect, int parallelism, int capacity,
            Duration warmup, Duration each, int batches, long operatorTimeoutSeconds) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_PORT, "0");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism, conf);
        String base = url.getScheme() + "://" + url.getAuthority();
        String path = url.getRawPath();
        RichAsyncFunction<Long, Integer> call = switch (function) {
            case "strand" -> strandFunction(url, HttpSettings.builder().baseUrl(base).poolSize(capacity));
            // One client for both subtasks, so its pool holds the in-flight records of both.
            case "strand-shared" -> strandFunction(url,
                    HttpSettings.builder().baseUrl(base).poolSize(capacity * parallelism).sharedClient(true));
            case "jdk" -> new JdkAsyncFunction(url.toString());
            default -> throw new IllegalArgumentException("--function strand|strand-shared|jdk, not " + function);
        };
        DataStream<Integer> lengths = AsyncDataStream.unorderedWait(
                        env.fromSequence(1, Long.MAX_VALUE), call, operatorTimeoutSeconds, TimeUnit.SECONDS, capacity)
                .returns(Types.INT);
        lengths.sinkTo(new CountingSink(expect)).name("count");

        JobClient job = env.executeAsync(name);
        try {
            // The clock starts at the first record through: deploying the job takes seconds on a busy machine.
            progress(name, "starting the job");
            long startBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (OK.sum() + BAD.sum() == 0) {
                if (System.nanoTime() > startBy) {
                    throw new IllegalStateException("no record through the job within 120 s");
                }
                sleepWatching(job, Duration.ofMillis(50));
            }
            progress(name, "warm-up " + warmup.toMillis() / 1000.0 + "s");
            sleepWatching(job, warmup);
            List<Double> rps = new ArrayList<>();
            long ok0 = OK.sum();
            long bad0 = BAD.sum();
            long cpu0 = LoadLoop.processCpuNanos();
            for (int b = 1; b <= batches; b++) {
                progress(name, "batch " + b + "/" + batches);
                long n0 = OK.sum();
                long t0 = System.nanoTime();
                sleepWatching(job, each);
                rps.add((OK.sum() - n0) * 1e9 / (System.nanoTime() - t0));
            }
            long cpu = LoadLoop.processCpuNanos() - cpu0;
            long ok = OK.sum() - ok0;
            long bad = BAD.sum() - bad0;
            Double cpuUs = ok == 0 ? null : cpu / 1_000.0 / (ok + bad);
            return Cell.measured(name, "java", "flink " + path, parallelism * capacity, rps, ok, BAD.sum(),
                    bad == 0 ? null : bad + " responses failed their check", cpuUs, null, null, null);
        } finally {
            job.cancel().get(30, TimeUnit.SECONDS);
        }
    }

    private static void sleepWatching(JobClient job, Duration d) throws Exception {
        long end = System.nanoTime() + d.toNanos();
        while (System.nanoTime() < end) {
            Thread.sleep(Math.min(250, Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()))));
        }
        if (job.getJobStatus().get(10, TimeUnit.SECONDS).isTerminalState()) {
            job.getJobExecutionResult().get(10, TimeUnit.SECONDS); // throws the job's failure
            throw new IllegalStateException("the job ended early");
        }
    }

    private static void progress(String name, String what) {
        System.err.println("PROGRESS " + name + " " + what);
        System.err.flush();
    }

    private static Duration seconds(String s) {
        return Duration.ofMillis(Math.round(Double.parseDouble(s) * 1000));
    }

    /**
     * One absolute GET, built once per subtask and sent for every record: what the JDK-client function (one
     * {@code HttpRequest}) and the raw client (one {@code Request}) send too, so that the three rows differ in
     * the path around the request and not in building it. (Built per record, {@code Request.get(path)} parses the
     * path and the client resolves it against the base URL: about 12 % of the task thread's samples in a JFR
     * profile, a cost of the job's mapper that neither other row pays.)
     */
    static final class SameRequest implements dev.strand.flink.RequestMapper<Long> {
        private static final long serialVersionUID = 1L;
        private final String url;
        private transient Request request;

        SameRequest(String url) {
            this.url = url;
        }

        @Override
        public Request toRequest(Long id) {
            Request r = request;
            if (r == null) {
                r = Request.get(url);
                request = r;
            }
            return r;
        }
    }

    /** Counts each response length: the expected one is a success, anything else a failed check. */
    static final class CountingSink implements Sink<Integer> {
        private static final long serialVersionUID = 1L;
        private final int expect;

        CountingSink(int expect) {
            this.expect = expect;
        }

        @Override
        public SinkWriter<Integer> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(Integer length, Context ctx) {
                    (length == expect ? OK : BAD).increment();
                }

                @Override
                public void flush(boolean endOfInput) {
                }

                @Override
                public void close() {
                }
            };
        }
    }

    /**
     * The JDK-client equivalent of Strand's function: one {@code HttpClient} per subtask (HTTP/1.1, 30 s connect and
     * request timeouts, default executor), {@code sendAsync(ofByteArray)}, the body length out; status ≥ 400 or a
     * failure fails the record, as Strand's does.
     */
    static final class JdkAsyncFunction extends RichAsyncFunction<Long, Integer> {
        private static final long serialVersionUID = 1L;
        private final String url;
        private transient HttpClient client;
        private transient HttpRequest request;

        JdkAsyncFunction(String url) {
            this.url = url;
        }

        @Override
        public void open(OpenContext context) {
            client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(30)).followRedirects(HttpClient.Redirect.NEVER).build();
            request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET().build();
        }

        @Override
        public void close() {
            if (client != null) {
                client.close();
            }
        }

        @Override
        public void asyncInvoke(Long id, ResultFuture<Integer> result) {
            client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((r, e) -> {
                if (e != null) {
                    result.completeExceptionally(e);
                } else if (r.statusCode() >= 400) {
                    result.completeExceptionally(new IllegalStateException("status " + r.statusCode()));
                } else {
                    result.complete(List.of(r.body().length));
                }
            });
        }
    }
}
