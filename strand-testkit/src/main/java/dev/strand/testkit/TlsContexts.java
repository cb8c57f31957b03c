package dev.strand.testkit;

import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;

/** Server {@link SslContext}s from PEM files, and checks on contexts users bring. */
final class TlsContexts {

    private static final InternalLogger LOG = InternalLoggerFactory.getInstance(TlsContexts.class);

    private TlsContexts() {
    }

    /** "jdk" or "openssl", as accepted by the builder; anything else is rejected. */
    static String checkProvider(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (!n.equals("jdk") && !n.equals("openssl")) {
            throw new IllegalArgumentException("sslProvider must be \"jdk\" or \"openssl\": " + name);
        }
        return n;
    }

    /** The engine to use: OpenSSL only when asked for and loadable (netty-tcnative is an optional dependency). */
    static SslProvider provider(String name) {
        if (!"openssl".equals(name)) {
            return SslProvider.JDK;
        }
        if (OpenSsl.isAvailable()) {
            return SslProvider.OPENSSL;
        }
        LOG.warn("strand-testkit: OpenSSL is unavailable ({}); using the JDK's TLS", OpenSsl.unavailabilityCause()
                .toString());
        return SslProvider.JDK;
    }

    /**
     * A server context for the PEM certificate chain and PKCS#8 key; offering h2 and http/1.1 by ALPN when
     * {@code http2}; requiring a client certificate issued by {@code clientCa} when that is not null.
     */
    static SslContext forServer(Path certPem, Path keyPem, Path clientCa, boolean http2, SslProvider provider) {
        try {
            SslContextBuilder b = SslContextBuilder.forServer(certPem.toFile(), keyPem.toFile()).sslProvider(provider);
            if (clientCa != null) {
                b.trustManager(clientCa.toFile()).clientAuth(ClientAuth.REQUIRE);
            }
            if (http2) {
                // RFC 9113 9.2.2 bans many TLS 1.2 suites for h2; this list is the allowed ones.
                b.ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
                        .applicationProtocolConfig(new ApplicationProtocolConfig(
                                ApplicationProtocolConfig.Protocol.ALPN,
                                ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                                ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                                ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1));
            }
            return b.build();
        } catch (IOException | IllegalArgumentException e) {
            throw new UncheckedIOException("cannot use TLS certificate " + certPem + " with key " + keyPem
                    + (clientCa == null ? "" : " and client CA " + clientCa) + ": " + e.getMessage(),
                    e instanceof IOException io ? io : new IOException(e));
        }
    }

    /**
     * Rejects a context that cannot serve as configured: a client context; h2 without ALPN offering it; or ALPN
     * offering h2 with http2 off, which would let clients negotiate a protocol the pipeline does not speak.
     */
    static void check(SslContext context, boolean http2) {
        if (!context.isServer()) {
            throw new IllegalArgumentException("need a server SslContext (SslContextBuilder.forServer)");
        }
        boolean offersH2 = context.applicationProtocolNegotiator().protocols().contains(ApplicationProtocolNames.HTTP_2);
        if (http2 && !offersH2) {
            throw new IllegalArgumentException("http2 over TLS needs an SslContext whose ALPN offers \"h2\" "
                    + "(SslContextBuilder.applicationProtocolConfig)");
        }
        if (!http2 && offersH2) {
            throw new IllegalArgumentException("the SslContext offers \"h2\" by ALPN: build with http2(true)");
        }
    }

    /** "openssl" or "jdk", for banners. */
    static String engineName(SslContext context) {
        return context.getClass().getSimpleName().contains("OpenSsl") ? "openssl" : "jdk";
    }
}
