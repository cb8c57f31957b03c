package dev.strand.testkit;

import dev.strand.testkit.tls.TestPki;
import io.netty.util.ResourceLeakDetector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** {@link TestServer#main}: parses the options, starts the server, prints where it listens, waits. */
final class ServerCommand {

    static final String USAGE = """
            usage: TestServer [--host H] [--port P] [--threads N] [--nio]
                              [--tls-cert FILE --tls-key FILE | --self-signed-dir DIR]
                              [--client-ca FILE] [--ssl-provider jdk|openssl]
                              [--http2] [--max-concurrent-streams N]""";

    private ServerCommand() {
    }

    static void run(String[] args) {
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            // A benchmark target should not spend time sampling its own buffers; tests set the level explicitly.
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        TestServer.Builder b = TestServer.builder();
        Path cert = null;
        Path key = null;
        Path selfSigned = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--host" -> b.host(value(args, ++i, arg));
                case "--port" -> b.port(Integer.parseInt(value(args, ++i, arg)));
                case "--threads" -> b.ioThreads(Integer.parseInt(value(args, ++i, arg)));
                case "--nio" -> b.preferNio(true);
                case "--tls-cert" -> cert = Path.of(value(args, ++i, arg));
                case "--tls-key" -> key = Path.of(value(args, ++i, arg));
                case "--self-signed-dir" -> selfSigned = Path.of(value(args, ++i, arg));
                case "--client-ca" -> b.requireClientAuth(Path.of(value(args, ++i, arg)));
                case "--ssl-provider" -> b.sslProvider(value(args, ++i, arg));
                case "--http2" -> b.http2(true);
                case "--max-concurrent-streams" -> b.maxConcurrentStreams(Integer.parseInt(value(args, ++i, arg)));
                case "-h", "--help" -> {
                    System.out.println(USAGE);
                    return;
                }
                default -> throw new IllegalArgumentException("unknown argument: " + arg + "\n" + USAGE);
            }
        }
        if ((cert == null) != (key == null)) {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together");
        }
        if (cert != null && selfSigned != null) {
            throw new IllegalArgumentException("use --tls-cert/--tls-key or --self-signed-dir, not both");
        }
        if (selfSigned != null) {
            TestPki pki = generate(selfSigned);
            b.tls(pki.server().cert(), pki.server().key());
            // Before the banner, so a script that reads up to the banner has the CA too.
            System.out.println("strand-testkit CA certificate: " + pki.ca().cert().toAbsolutePath());
        } else if (cert != null) {
            b.tls(cert, key);
        }
        TestServer server = b.build();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "strand-testkit-shutdown"));
        System.out.println("strand-testkit listening on " + server.baseUri() + " (" + server.description() + ")");
        server.awaitClose();
    }

    private static TestPki generate(Path dir) {
        try {
            return TestPki.generate(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }
}
