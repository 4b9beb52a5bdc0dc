package com.telemed.requests.consultation;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.telemed.requests.FakeNeighbours;
import com.telemed.requests.FakeNeighboursResource;
import com.telemed.requests.request.PendingRequest;
import com.telemed.testkit.quarkus.InfrastructureResource;
import com.telemed.testkit.quarkus.ServiceDatabase;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A booking token is a bearer credential: the link carries it once, the database only its SHA-256,
 * by which the consultation is found; the hash V8__booking_token_hash.sql gave existing rows is the
 * one the code looks up.
 */
@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(FakeNeighboursResource.class)
class BookingTokenStorageTest {

    private static final String LINK = "http://localhost:8080/book/";

    @Inject
    FakeNeighbours neighbours;

    @Inject
    Bookings bookings;

    String partner;
    String requestId;
    String prescriberId;

    @BeforeEach
    void setUp() {
        neighbours.reset();
        PendingRequest pending = PendingRequest.create(neighbours, "Ada", "Lovelace");
        partner = pending.partner();
        prescriberId = pending.prescriberId();
        requestId = pending.requestId();
    }

    private String consultationToken() {
        String url = given().contentType("application/json").body(Map.of("prescriberId", prescriberId))
                .post("/ops/v1/requests/" + requestId + "/request-consultation")
                .then().statusCode(200).extract().path("booking.bookingUrl");
        assertTrue(url.startsWith(LINK), url);
        return url.substring(LINK.length());
    }

    @Test
    void theDatabaseHoldsTheTokensHashOnly() throws Exception {
        String token = consultationToken();
        List<String> values = new ArrayList<>();
        try (Connection connection = ServiceDatabase.connect();
             var statement = connection.prepareStatement("SELECT * FROM consultations WHERE request_id = ?::uuid")) {
            statement.setString(1, requestId);
            try (var rows = statement.executeQuery()) {
                assertTrue(rows.next());
                for (int column = 1; column <= rows.getMetaData().getColumnCount(); column++) {
                    values.add(rows.getString(column));
                }
                assertEquals(Bookings.hash(token), rows.getString("token_hash"));
                assertFalse(rows.next());
            }
        }
        assertTrue(values.stream().noneMatch(value -> value != null && value.contains(token)), values.toString());
        assertTrue(Bookings.hash(token).matches("[0-9a-f]{64}"));
    }

    @Test
    void aTokenFindsItsConsultationByItsHash() {
        String token = consultationToken();
        Consultation found = QuarkusTransaction.requiringNew().call(() -> bookings.byToken(token)).orElseThrow();
        assertEquals(UUID.fromString(requestId), found.requestId);
        assertEquals(partner, found.partnerId);
        assertEquals(UUID.fromString(prescriberId), found.prescriberId);
        assertTrue(QuarkusTransaction.requiringNew().call(() -> bookings.byToken(token + "x")).isEmpty());
        assertTrue(QuarkusTransaction.requiringNew().call(() -> bookings.byToken(Bookings.hash(token))).isEmpty(),
                "the stored hash is no token");
        assertTrue(QuarkusTransaction.requiringNew().call(() -> bookings.byToken("")).isEmpty());
    }

    /** The migration hashed the tokens stored before it in SQL: the same hash as the code's, so those links still resolve. */
    @Test
    void theMigrationsHashIsTheCodes() throws Exception {
        try (Connection connection = ServiceDatabase.connect();
             var statement = connection.prepareStatement("SELECT encode(sha256(convert_to(?, 'UTF8')), 'hex')")) {
            for (String token : List.of("q3V0b2tlbi1ib29raW5nLWxpbmstMjRi", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "-_-_é")) {
                statement.setString(1, token);
                try (var rows = statement.executeQuery()) {
                    rows.next();
                    assertEquals(Bookings.hash(token), rows.getString(1), token);
                }
            }
        }
    }
}
