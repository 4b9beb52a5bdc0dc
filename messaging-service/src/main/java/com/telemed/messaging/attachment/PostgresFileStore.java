package com.telemed.messaging.attachment;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.UUID;

/**
 * Files in PostgreSQL, table {@code file_chunks}: 1 MiB {@code bytea} chunks. A write reads the
 * stream one chunk at a time and inserts it (in the caller's transaction); a read selects one
 * chunk at a time and writes it out, so a 10 MB file costs about 1 MiB of heap either way.
 * Native SQL: the chunks are bytes, not entities, and a read runs while the answer streams, after
 * the resource method returned (one short statement per chunk, each on a connection of its own).
 */
@ApplicationScoped
public class PostgresFileStore implements FileStore {

    static final int CHUNK_BYTES = 1024 * 1024;

    private final EntityManager entityManager;
    private final AgroalDataSource dataSource;

    public PostgresFileStore(EntityManager entityManager, AgroalDataSource dataSource) {
        this.entityManager = entityManager;
        this.dataSource = dataSource;
    }

    @Override
    public UUID write(InputStream bytes) throws IOException {
        UUID fileId = UUID.randomUUID();
        byte[] chunk = new byte[CHUNK_BYTES];
        int seq = 0;
        while (true) {
            int filled = bytes.readNBytes(chunk, 0, CHUNK_BYTES);
            if (filled == 0) {
                break;
            }
            byte[] content = filled == CHUNK_BYTES ? chunk : Arrays.copyOf(chunk, filled);
            entityManager.createNativeQuery("INSERT INTO file_chunks (file_id, seq, bytes) VALUES (:file, :seq, :bytes)")
                    .setParameter("file", fileId)
                    .setParameter("seq", seq++)
                    .setParameter("bytes", content)
                    .executeUpdate();
            if (filled < CHUNK_BYTES) {
                break;
            }
        }
        return fileId;
    }

    /**
     * Each chunk is read on a connection taken from the pool for that one statement and given back
     * before the chunk is written out: a client that reads slowly (or not at all) holds a worker
     * thread and one chunk of heap, never one of the pool's connections, so slow downloads cannot
     * starve the service's other calls of the database.
     */
    @Override
    public void copyTo(UUID fileId, OutputStream out) throws IOException {
        for (int seq = 0; ; seq++) {
            byte[] chunk = chunk(fileId, seq);
            if (chunk == null) {
                return;
            }
            out.write(chunk);
        }
    }

    /** Chunk {@code seq} of the file, or null after its last one. */
    private byte[] chunk(UUID fileId, int seq) throws IOException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement select = connection.prepareStatement("SELECT bytes FROM file_chunks WHERE file_id = ? AND seq = ?")) {
            select.setObject(1, fileId);
            select.setInt(2, seq);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getBytes(1) : null;
            }
        } catch (SQLException e) {
            throw new IOException("reading a stored file failed: " + e.getClass().getName());
        }
    }
}
