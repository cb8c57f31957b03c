package dev.strand.flink;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.PackagedProgram;
import org.apache.flink.client.program.PackagedProgramUtils;
import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;

/**
 * A Flink session cluster of separate JVMs for tests: one JobManager ({@code StandaloneSessionClusterEntrypoint})
 * and two TaskManagers ({@code TaskManagerRunner}, one slot each), started from Flink's jars on the Maven test
 * classpath without Strand or (unshaded) Netty, on loopback with free ports, configured by a {@code config.yaml} in
 * a temp dir. Jobs go in a job jar assembled as a user would ship it and are submitted through Flink's
 * {@link RestClusterClient} with that jar attached, as {@code flink run} does. {@link #close()} stops every
 * process; should the test JVM itself be stopped first, a shutdown hook does.
 */
final class ProcessCluster implements AutoCloseable {

    private static final Duration STARTUP = Duration.ofSeconds(90);

    /** What Flink's own scripts pass to every Flink JVM (env.java.default-opts.all of Flink 2.x's config.yaml). */
    private static final List<String> FLINK_JVM_OPTS = List.of(
            "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.text=ALL-UNNAMED",
            "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");

    private final Path tmp;
    private final List<Process> processes = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<String, Path> logs = new LinkedHashMap<>();
    private final Thread reaper = new Thread(() -> processes.forEach(Process::destroyForcibly), "cluster-reaper");
    private final Duration jobTimeout;
    private Configuration client;

    private ProcessCluster(Path tmp, Duration jobTimeout) {
        this.tmp = tmp;
        this.jobTimeout = jobTimeout;
    }

    /**
     * Starts the cluster and waits until both TaskManagers have registered.
     *
     * @param tmp a directory for configuration, logs and the job jar
     * @param jobTimeout the longest {@link #submitAndWait} waits for a job's result
     */
    static ProcessCluster start(Path tmp, Duration jobTimeout) throws Exception {
        ProcessCluster c = new ProcessCluster(tmp, jobTimeout);
        Runtime.getRuntime().addShutdownHook(c.reaper);
        try {
            c.client = c.startCluster();
        } catch (Throwable t) {
            c.printLogs();
            c.close();
            throw t;
        }
        return c;
    }

    /** Each process's log file, by name: {@code jobmanager}, {@code taskmanager-1}, {@code taskmanager-2}. */
    Map<String, Path> logs() {
        return logs;
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or about to: nothing to remove.
        }
    }

    // ---- the job jar ----

    /**
     * A job jar as a user ships it: the test classes of {@code dev.strand.flink.example} (the user's code, with
     * {@code mainClass} in the manifest), strand-flink and its runtime classpath (Strand core, Netty); no Flink.
     */
    Path buildJobJar(Class<?> mainClass) throws IOException {
        Path module = Path.of("").toAbsolutePath();
        Path target = module.resolve("target");
        List<Path> parts = new ArrayList<>();
        parts.add(target.resolve("classes"));
        for (String entry : Files.readString(target.resolve("job-jar-classpath.txt")).trim().split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                parts.add(Path.of(entry));
            }
        }
        assertTrue(parts.stream().noneMatch(p -> p.toString().contains("org/apache/flink")),
                "Flink stays out of the job jar: " + parts);
        Path jar = tmp.resolve("strand-example-job.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass.getName());
        Set<String> seen = new HashSet<>();
        Map<String, StringBuilder> services = new LinkedHashMap<>();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            seen.add("META-INF/");
            seen.add("META-INF/MANIFEST.MF");
            // The job class alone from the test classes, as the user's own code.
            Path testClasses = target.resolve("test-classes");
            addDirectory(out, testClasses, testClasses.resolve("dev/strand/flink/example"), seen, services);
            for (Path part : parts) {
                if (Files.isDirectory(part)) {
                    addDirectory(out, part, part, seen, services);
                } else if (Files.isRegularFile(part)) {
                    addJar(out, part, seen, services);
                }
            }
            for (Map.Entry<String, StringBuilder> s : services.entrySet()) {
                out.putNextEntry(new JarEntry(s.getKey()));
                out.write(s.getValue().toString().getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        try (JarFile check = new JarFile(jar.toFile())) {
            assertTrue(check.getEntry(mainClass.getName().replace('.', '/') + ".class") != null, "job class");
            assertTrue(check.getEntry("dev/strand/flink/StrandAsyncFunction.class") != null, "strand-flink");
            assertTrue(check.getEntry("dev/strand/Client.class") != null, "strand core");
            assertTrue(check.getEntry("io/netty/channel/Channel.class") != null, "netty");
            assertTrue(check.stream().noneMatch(e -> e.getName().startsWith("org/apache/flink/")), "no Flink");
        }
        return jar;
    }

    private static void addDirectory(JarOutputStream out, Path root, Path dir, Set<String> seen,
            Map<String, StringBuilder> services) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                String name = root.relativize(f).toString().replace(File.separatorChar, '/');
                try (InputStream in = Files.newInputStream(f)) {
                    addEntry(out, name, in, seen, services);
                }
            }
        }
    }

    private static void addJar(JarOutputStream out, Path jar, Set<String> seen, Map<String, StringBuilder> services)
            throws IOException {
        try (JarFile jf = new JarFile(jar.toFile())) {
            for (JarEntry e : jf.stream().filter(e -> !e.isDirectory()).toList()) {
                try (InputStream in = jf.getInputStream(e)) {
                    addEntry(out, e.getName(), in, seen, services);
                }
            }
        }
    }

    private static void addEntry(JarOutputStream out, String name, InputStream in, Set<String> seen,
            Map<String, StringBuilder> services) throws IOException {
        String upper = name.toUpperCase(java.util.Locale.ROOT);
        if (upper.equals("META-INF/MANIFEST.MF") || upper.equals("META-INF/INDEX.LIST")
                || (upper.startsWith("META-INF/") && (upper.endsWith(".SF") || upper.endsWith(".RSA")
                        || upper.endsWith(".DSA") || upper.endsWith(".EC")))
                || name.endsWith("module-info.class")) {
            return;
        }
        if (name.startsWith("META-INF/services/")) {
            services.computeIfAbsent(name, k -> new StringBuilder())
                    .append(new String(in.readAllBytes(), StandardCharsets.UTF_8)).append('\n');
            return;
        }
        if (!seen.add(name)) {
            return;
        }
        out.putNextEntry(new JarEntry(name));
        in.transferTo(out);
        out.closeEntry();
    }

    // ---- the cluster ----

    /** The test's classpath without Strand, its Netty and anything of this build's own: Flink and its deps. */
    private static String clusterClasspath() throws IOException {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> kept = new ArrayList<>();
        for (String entry : expandManifestOnlyJars(cp)) {
            Path p = Path.of(entry);
            String s = p.toString().replace(File.separatorChar, '/');
            if (Files.isDirectory(p) || !Files.exists(p) || s.contains("/io/netty/") || s.contains("/dev/strand/")) {
                continue;
            }
            kept.add(entry);
        }
        String joined = String.join(File.pathSeparator, kept);
        assertFalse(joined.contains("/io/netty/") || joined.contains("/dev/strand/"), "no Strand, no Netty: " + joined);
        assertTrue(joined.contains("flink-runtime-2") && joined.contains("flink-rpc-akka-loader")
                && joined.contains("flink-clients"), "Flink's jars on the test classpath: " + joined);
        return joined;
    }

    /** Surefire may hand the JVM a manifest-only jar; its Class-Path names the real entries. */
    private static List<String> expandManifestOnlyJars(String cp) throws IOException {
        List<String> out = new ArrayList<>();
        for (String entry : cp.split(File.pathSeparator)) {
            if (entry.contains("surefirebooter") && entry.endsWith(".jar")) {
                try (JarFile jf = new JarFile(entry)) {
                    String classPath = jf.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
                    for (String url : classPath == null ? new String[0] : classPath.split(" ")) {
                        if (!url.isBlank()) {
                            out.add(Path.of(URI.create(url)).toString());
                        }
                    }
                }
            } else {
                out.add(entry);
            }
        }
        return out;
    }

    private Configuration startCluster() throws Exception {
        int rpcPort = freePort();
        int restPort = freePort();
        Path confDir = Files.createDirectories(tmp.resolve("conf"));
        Path work = Files.createDirectories(tmp.resolve("work"));
        String yaml = String.join("\n",
                "jobmanager.rpc.address: 127.0.0.1",
                "jobmanager.rpc.port: " + rpcPort,
                "jobmanager.bind-host: 127.0.0.1",
                "rest.address: 127.0.0.1",
                "rest.bind-address: 127.0.0.1",
                "rest.port: " + restPort,
                "taskmanager.host: 127.0.0.1",
                "taskmanager.bind-host: 127.0.0.1",
                "taskmanager.numberOfTaskSlots: 1",
                "taskmanager.memory.task.heap.size: 256m",
                "taskmanager.memory.managed.size: 64m",
                "taskmanager.memory.network.min: 64m",
                "taskmanager.memory.network.max: 64m",
                "jobmanager.memory.process.size: 768m",
                "parallelism.default: 2",
                "io.tmp.dirs: " + work,
                "blob.storage.directory: " + work,
                "web.tmpdir: " + work,
                "");
        Files.writeString(confDir.resolve("config.yaml"), yaml);
        Files.writeString(confDir.resolve("log4j.properties"), String.join("\n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.out.ref = out",
                "appender.out.name = out",
                "appender.out.type = Console",
                "appender.out.layout.type = PatternLayout",
                "appender.out.layout.pattern = %d{HH:mm:ss.SSS} %-5p %c{1} - %m%n",
                "logger.pekko.name = org.apache.pekko",
                "logger.pekko.level = WARN",
                ""));

        Configuration tmConf = new Configuration();
        tmConf.set(TaskManagerOptions.TASK_HEAP_MEMORY, MemorySize.parse("256m"));
        tmConf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("64m"));
        tmConf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.parse("64m"));
        tmConf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.parse("64m"));
        TaskExecutorProcessSpec spec = TaskExecutorProcessUtils.processSpecFromConfig(tmConf);
        // What taskmanager.sh does: JVM sizes from the spec, and the spec's dynamic properties for the runner.
        List<String> tmJvm = Arrays.asList(ProcessMemoryUtils.generateJvmParametersStr(spec).trim()
                .split("\\s+"));
        List<String> tmDynamic = Arrays.asList(TaskExecutorProcessUtils.generateDynamicConfigsStr(spec).trim()
                .split("\\s+"));

        String classpath = clusterClasspath();
        start("jobmanager", classpath, confDir, List.of("-Xmx384m"),
                "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint", List.of());
        for (int i = 1; i <= 2; i++) {
            start("taskmanager-" + i, classpath, confDir, tmJvm,
                    "org.apache.flink.runtime.taskexecutor.TaskManagerRunner", tmDynamic);
        }

        awaitSlots(restPort, 2);

        Configuration client = new Configuration();
        client.set(RestOptions.ADDRESS, "127.0.0.1");
        client.set(RestOptions.PORT, restPort);
        client.set(JobManagerOptions.ADDRESS, "127.0.0.1");
        client.set(JobManagerOptions.PORT, rpcPort);
        return client;
    }

    private void start(String name, String classpath, Path confDir, List<String> jvmArgs, String mainClass,
            List<String> args) throws IOException {
        Path log = tmp.resolve(name + ".log");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.addAll(FLINK_JVM_OPTS);
        cmd.add("-Dlog4j.configurationFile=" + confDir.resolve("log4j.properties").toUri());
        cmd.add("-Dlog.file=" + log);
        // Netty in the job jar runs its leak detector at its strictest; a leak would show as "LEAK:" in the log.
        cmd.add("-Dio.netty.leakDetection.level=PARANOID");
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass);
        cmd.add("--configDir");
        cmd.add(confDir.toString());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("FLINK_CONF_DIR", confDir.toString());
        logs.put(name, log);
        processes.add(pb.start());
    }

    /** Waits until the cluster's REST API reports {@code slots} slots (both TaskManagers registered). */
    private void awaitSlots(int restPort, int slots) throws Exception {
        Pattern total = Pattern.compile("\"slots-total\"\\s*:\\s*(\\d+)");
        long deadline = System.nanoTime() + STARTUP.toNanos();
        String last = "";
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
            while (System.nanoTime() < deadline) {
                for (Process p : processes) {
                    assertTrue(p.isAlive(), "a cluster process exited early: " + p.info().commandLine()
                            .map(c -> c.substring(Math.max(0, c.length() - 120))).orElse("?"));
                }
                try {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                                    URI.create("http://127.0.0.1:" + restPort + "/overview"))
                            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                    last = r.body();
                    Matcher m = total.matcher(last);
                    if (r.statusCode() == 200 && m.find() && Integer.parseInt(m.group(1)) >= slots) {
                        return;
                    }
                } catch (IOException e) {
                    last = e.toString(); // not listening yet
                }
                Thread.sleep(250);
            }
        }
        throw new AssertionError("the cluster did not offer " + slots + " slots within " + STARTUP + "; last: " + last);
    }

    /** Submits the job in {@code jobJar} with {@code args} as {@code flink run} does, and waits for its result. */
    JobResult submitAndWait(Path jobJar, String... args) throws Exception {
        PackagedProgram program = PackagedProgram.newBuilder()
                .setJarFile(jobJar.toFile())
                .setConfiguration(client)
                .setArguments(args)
                .build();
        try {
            JobGraph graph = PackagedProgramUtils.createJobGraph(program, client, 2, false);
            assertTrue(graph.getUserJars().stream().anyMatch(j -> j.getName().endsWith("strand-example-job.jar")),
                    "the job jar goes with the job: " + graph.getUserJars());
            try (RestClusterClient<StandaloneClusterId> rest =
                    new RestClusterClient<>(client, StandaloneClusterId.getInstance())) {
                JobID id = rest.submitJob(graph).get(60, TimeUnit.SECONDS);
                return rest.requestJobResult(id).get(jobTimeout.toSeconds(), TimeUnit.SECONDS);
            }
        } finally {
            program.close();
        }
    }

    private void stopAll() {
        for (Process p : processes) {
            p.destroy();
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                    p.waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
    }

    /** Prints the last 200 lines of every process's log. */
    void printLogs() {
        for (Map.Entry<String, Path> log : logs.entrySet()) {
            try {
                List<String> lines = Files.readAllLines(log.getValue());
                System.out.println("===== " + log.getKey() + " (" + log.getValue() + "), last 200 of " + lines.size()
                        + " lines =====");
                lines.subList(Math.max(0, lines.size() - 200), lines.size()).forEach(System.out::println);
            } catch (IOException | UncheckedIOException e) {
                System.out.println("===== " + log.getKey() + ": unreadable: " + e);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
