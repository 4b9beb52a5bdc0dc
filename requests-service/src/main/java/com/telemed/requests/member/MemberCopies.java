package com.telemed.requests.member;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;

/**
 * requests-service's copy of its members' snapshots (issue 23, V18__member_copies.sql): a create that
 * names a {@code memberId} reads it here instead of calling members-service.
 *
 * <p>Why a copy is never stale for a create: members-service numbers each change of a member
 * ({@code version}), and before it commits change {@code v} a fence of {@code v} is recorded here
 * ({@link #fence}: by members-service for {@code PUT /v1/members/{id}}, by {@link MemberLookup} for a
 * create's inline member). A row answers ({@link #current}) only while its version has reached its
 * fence. So once members-service has answered a change, every create either finds that change in the
 * copy or reads the member through ({@link MembersClient#find}) and {@link #store}s what it read. A
 * fence whose change never committed only costs reads through until the member changes again.
 *
 * <p>Every write applies only a newer version, so concurrent reads through and fences end at
 * members-service's state in any order. A member whose delete was agreed ({@code deleted_members})
 * is never answered, and its row is removed with the agreement ({@link MemberDeletions}).
 */
@ApplicationScoped
public class MemberCopies {

    /** The copy when current: six columns (see {@link #read}); parameters partner, member. */
    public static final String CURRENT = """
            SELECT c.first_name, c.last_name, c.email, c.date_of_birth, c.state, c.version
            FROM member_copies c
            WHERE c.partner_id = ? AND c.member_id = ? AND c.version > 0 AND c.version >= c.fence
              AND NOT EXISTS (SELECT 1 FROM deleted_members d WHERE d.partner_id = c.partner_id AND d.member_id = c.member_id)""";

    private static final String STORE = """
            INSERT INTO member_copies (partner_id, member_id, version, first_name, last_name, email, date_of_birth, state)
            SELECT ?, ?, ?, ?, ?, ?, ?, ?
            WHERE NOT EXISTS (SELECT 1 FROM deleted_members d WHERE d.partner_id = ? AND d.member_id = ?)
            ON CONFLICT (partner_id, member_id) DO UPDATE
            SET version = excluded.version, first_name = excluded.first_name, last_name = excluded.last_name,
                email = excluded.email, date_of_birth = excluded.date_of_birth, state = excluded.state
            WHERE member_copies.version < excluded.version""";

    private static final String FENCE = """
            INSERT INTO member_copies (partner_id, member_id, fence) VALUES (?, ?, ?)
            ON CONFLICT (partner_id, member_id) DO UPDATE SET fence = greatest(member_copies.fence, excluded.fence)""";

    /** Run by {@link MemberDeletions#agree} in its transaction. */
    static final String FORGET = "DELETE FROM member_copies WHERE partner_id = :partner AND member_id = :member";

    private final AgroalDataSource dataSource;

    public MemberCopies(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The partner's member as the copy holds it, when the copy has reached every change fenced; else empty. */
    public Optional<MemberSnapshot> current(String partnerId, UUID memberId) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(CURRENT)) {
            statement.setString(1, partnerId);
            statement.setObject(2, memberId);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? read(row, 1, memberId) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the member copy", e);
        }
    }

    /**
     * The member of a row of {@link #CURRENT}'s six columns, starting at column {@code first}; empty when they
     * are null (a statement that joins {@link #CURRENT} found no current copy).
     */
    public static Optional<MemberSnapshot> read(ResultSet row, int first, UUID memberId) throws SQLException {
        long version = row.getLong(first + 5);
        if (row.wasNull()) {
            return Optional.empty();
        }
        return Optional.of(new MemberSnapshot(memberId, row.getString(first), row.getString(first + 1), row.getString(first + 2),
                row.getString(first + 3), row.getString(first + 4), version));
    }

    /**
     * Keeps what members-service answered, unless the copy holds that version or a newer one already.
     * A snapshot without a version (0: members-service did not say) is not kept.
     */
    public void store(String partnerId, MemberSnapshot member) {
        if (member.version() <= 0) {
            return;
        }
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(STORE)) {
            statement.setString(1, partnerId);
            statement.setObject(2, member.id());
            statement.setLong(3, member.version());
            statement.setString(4, member.firstName());
            statement.setString(5, member.lastName());
            statement.setString(6, member.email());
            statement.setString(7, member.dateOfBirth());
            statement.setString(8, member.state());
            statement.setString(9, partnerId);
            statement.setObject(10, member.id());
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not store the member copy", e);
        }
    }

    /** From now on the copy answers for the member only once it holds {@code version} or a newer one. Repeatable. */
    public void fence(String partnerId, UUID memberId, long version) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(FENCE)) {
            statement.setString(1, partnerId);
            statement.setObject(2, memberId);
            statement.setLong(3, version);
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not record the member fence", e);
        }
    }
}
