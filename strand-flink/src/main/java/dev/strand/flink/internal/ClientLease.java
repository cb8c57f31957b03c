package dev.strand.flink.internal;

import dev.strand.Client;
import dev.strand.flink.HttpSettings;
import java.util.HashMap;
import java.util.Map;

/**
 * A subtask's hold on its client: one of its own, or the one shared by the subtasks of this JVM whose settings
 * are equal ({@link HttpSettings#sharedClient()}), built by the first hold and closed with the last. The table of
 * shared clients is per class loader, so per job where Flink gives each job a loader of its own.
 */
public final class ClientLease implements AutoCloseable {
    private static final Map<HttpSettings, Shared> SHARED = new HashMap<>();

    private final HttpSettings sharedBy;
    private final Client client;
    private boolean closed;

    private ClientLease(HttpSettings sharedBy, Client client) {
        this.sharedBy = sharedBy;
        this.client = client;
    }

    /**
     * @param settings the client's settings
     * @return a hold on a new client, or on the shared one for these settings
     */
    public static ClientLease open(HttpSettings settings) {
        if (!settings.sharedClient()) {
            return new ClientLease(null, settings.newClient());
        }
        synchronized (SHARED) {
            Shared shared = SHARED.computeIfAbsent(settings, s -> new Shared(s.newClient()));
            shared.holds++;
            return new ClientLease(settings, shared.client);
        }
    }

    /** @return the client */
    public Client client() {
        return client;
    }

    /** Closes the client, or lets go of the shared one (closing it when this was the last hold). Idempotent. */
    @Override
    public void close() {
        Client last = null;
        synchronized (SHARED) {
            if (closed) {
                return;
            }
            closed = true;
            if (sharedBy == null) {
                last = client;
            } else {
                Shared shared = SHARED.get(sharedBy);
                if (--shared.holds == 0) {
                    SHARED.remove(sharedBy);
                    last = shared.client;
                }
            }
        }
        if (last != null) {
            last.close();
        }
    }

    /** @return how many shared clients are open in this JVM, through this class's loader (for tests) */
    public static int sharedClientsOpen() {
        synchronized (SHARED) {
            return SHARED.size();
        }
    }

    private static final class Shared {
        final Client client;
        int holds;

        Shared(Client client) {
            this.client = client;
        }
    }
}
