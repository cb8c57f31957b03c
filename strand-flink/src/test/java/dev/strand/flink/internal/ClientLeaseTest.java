package dev.strand.flink.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.strand.TransportException;
import dev.strand.flink.HttpSettings;
import dev.strand.testkit.NettyLeakDetectorExtension;
import dev.strand.testkit.TestServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Subtasks with equal settings share one client when asked to, and the last one to let go closes it. */
@ExtendWith(NettyLeakDetectorExtension.class)
class ClientLeaseTest {
    @RegisterExtension
    static final TestServerExtension SERVER = TestServerExtension.start();

    private static HttpSettings settings(boolean shared) {
        return HttpSettings.builder().baseUrl(SERVER.get().baseUri().toString()).sharedClient(shared).build();
    }

    @Test
    void equalSharedSettingsGetOneClientThatStaysOpenUntilTheLastHoldCloses() {
        ClientLease first = ClientLease.open(settings(true));
        ClientLease second = ClientLease.open(settings(true));
        assertSame(first.client(), second.client(), "equal settings, built apart, share a client");
        assertEquals(1, ClientLease.sharedClientsOpen());

        first.close();
        first.close(); // idempotent: the second hold still counts
        assertEquals(200, second.client().get("/small").status(), "still open for the other subtask");

        second.close();
        assertEquals(0, ClientLease.sharedClientsOpen());
        TransportException closed = assertThrows(TransportException.class, () -> second.client().get("/small"));
        assertEquals("the transport is closed", closed.getCause().getMessage(), "closed with the last hold");
    }

    @Test
    void unsharedOrDifferentSettingsGetClientsOfTheirOwn() {
        try (ClientLease a = ClientLease.open(settings(false));
                ClientLease b = ClientLease.open(settings(false));
                ClientLease c = ClientLease.open(settings(true));
                ClientLease d = ClientLease.open(HttpSettings.builder().baseUrl(SERVER.get().baseUri().toString())
                        .poolSize(7).sharedClient(true).build())) {
            assertNotSame(a.client(), b.client());
            assertNotSame(c.client(), d.client(), "a pool size apart");
            assertEquals(2, ClientLease.sharedClientsOpen());
        }
        assertEquals(0, ClientLease.sharedClientsOpen());
    }

    @Test
    void settingsAreEqualByValue() {
        assertEquals(settings(true), settings(true));
        assertEquals(settings(true).hashCode(), settings(true).hashCode());
        assertEquals(false, settings(true).equals(settings(false)));
    }
}
