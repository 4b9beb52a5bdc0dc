package com.telemed.requests.member;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.telemed.requests.FakeNeighboursResource;
import com.telemed.testkit.quarkus.InfrastructureResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MemberDeletions#live} and the database function behind it (V16): its read of
 * {@code deleted_members} must come after its lock, with a snapshot of its own. A create that waits on
 * the lock while a delete is agreed must see that delete once the lock is granted.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class MemberLiveTest {

    @Inject
    AgroalDataSource dataSource;

    private final ExecutorService creates = Executors.newSingleThreadExecutor();

    @AfterEach
    void tearDown() {
        creates.shutdownNow();
    }

    @Test
    void aDeleteAgreedWhileTheCreateWaitsOnTheLockIsSeenOnceTheLockIsGranted() throws Exception {
        String partner = "partner-" + UUID.randomUUID();
        UUID member = UUID.randomUUID();
        try (Connection delete = dataSource.getConnection()) {
            delete.setAutoCommit(false);
            // MemberDeletions.agree's lock and record, not yet committed.
            try (PreparedStatement lock = delete.prepareStatement(
                    "SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext('requests.member:' || ?), hashtext(?))) AS locked")) {
                lock.setString(1, partner);
                lock.setString(2, member.toString());
                lock.executeQuery().close();
            }
            try (PreparedStatement record = delete.prepareStatement(
                    "INSERT INTO deleted_members (partner_id, member_id, deleted_at) VALUES (?, ?, now())")) {
                record.setString(1, partner);
                record.setObject(2, member);
                record.executeUpdate();
            }
            Future<Boolean> live = creates.submit(() -> live(partner, member));
            await().atMost(Duration.ofSeconds(10)).until(() -> waitingOnAdvisoryLock(partner));
            assertFalse(live.isDone(), "the create waits for the delete's lock");
            delete.commit();
            assertEquals(false, live.get(10, TimeUnit.SECONDS), "the delete committed while the create waited: no request");
        }
    }

    @Test
    void aMemberWithoutAgreedDeleteIsLiveAndOneWithItIsNot() throws Exception {
        String partner = "partner-" + UUID.randomUUID();
        UUID kept = UUID.randomUUID();
        UUID deleted = UUID.randomUUID();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement record = connection.prepareStatement(
                     "INSERT INTO deleted_members (partner_id, member_id, deleted_at) VALUES (?, ?, now())")) {
            record.setString(1, partner);
            record.setObject(2, deleted);
            record.executeUpdate();
        }
        assertEquals(true, live(partner, kept));
        assertEquals(false, live(partner, deleted));
        assertEquals(true, live("other-" + partner, deleted), "another partner's record is not this partner's");
    }

    /** What a create's inserting transaction runs, in a transaction of its own. */
    private static boolean live(String partner, UUID member) {
        return QuarkusTransaction.requiringNew().call(() -> MemberDeletions.live(partner, member));
    }

    private boolean waitingOnAdvisoryLock(String partner) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement waiting = connection.prepareStatement(
                     "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid::int = hashtext(?)")) {
            waiting.setString(1, "requests.member:" + partner);
            try (ResultSet result = waiting.executeQuery()) {
                result.next();
                return result.getLong(1) > 0;
            }
        }
    }
}
