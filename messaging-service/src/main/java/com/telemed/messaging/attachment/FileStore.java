package com.telemed.messaging.attachment;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.UUID;

/**
 * Where attachment bytes live: PostgreSQL by default ({@link PostgresFileStore}); an object store
 * implements the same two calls. Both directions stream: no implementation holds a whole file
 * in memory.
 */
public interface FileStore {

    /**
     * Stores the bytes under a new id, inside the caller's transaction when there is one (the file
     * then exists exactly when the message that names it does), and returns the id.
     */
    UUID write(InputStream bytes) throws IOException;

    /** Copies the stored bytes to {@code out}, in order, as they are read. */
    void copyTo(UUID fileId, OutputStream out) throws IOException;
}
