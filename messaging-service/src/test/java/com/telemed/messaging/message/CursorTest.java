package com.telemed.messaging.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.telemed.common.error.ApiException;
import java.util.List;
import org.junit.jupiter.api.Test;

class CursorTest {

    @Test
    void aCursorNamesThePositionItWasMadeFrom() {
        for (long seq : List.of(1L, 42L, 999_999_999_999L)) {
            assertEquals(seq, Cursor.decode(Cursor.encode(seq)));
        }
    }

    @Test
    void anythingElseIsInvalid() {
        for (String cursor : List.of("", "nope", "YWZ0ZXI6MA", "YWZ0ZXI6LTE", "YWZ0ZXI6", "YmVmb3JlOjE", "%%%",
                "YWZ0ZXI6MTIzNDU2Nzg5MDEyMzQ1Njc4OTA")) {
            ApiException refused = assertThrows(ApiException.class, () -> Cursor.decode(cursor), cursor);
            assertEquals(400, refused.status());
            assertEquals("Invalid cursor", refused.getMessage());
        }
    }
}
