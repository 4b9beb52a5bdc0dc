package com.telemed.requests.prescription;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.quarkus.ServiceDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * Changes a signed record's dose behind the immutability trigger's back, as someone with the
 * database's owner rights could: the trigger is disabled, the row updated and the trigger enabled
 * again in one transaction, so a failure on the way rolls the disable back too and the trigger
 * never stays off.
 */
public final class Tampering {

    public static final String TRIGGER = "prescription_records_signed";

    private Tampering() {
    }

    public static void changeSignedDose(UUID recordId, String value) throws SQLException {
        try (Connection connection = ServiceDatabase.connect(); Statement statement = connection.createStatement();
             PreparedStatement tamper = connection.prepareStatement(
                     "UPDATE prescription_records SET clinical = jsonb_set(clinical, '{clinicalDose,value}', ?::jsonb) WHERE id = ?")) {
            connection.setAutoCommit(false);
            boolean committed = false;
            try {
                statement.execute("ALTER TABLE prescription_records DISABLE TRIGGER " + TRIGGER);
                tamper.setString(1, value);
                tamper.setObject(2, recordId);
                assertEquals(1, tamper.executeUpdate());
                statement.execute("ALTER TABLE prescription_records ENABLE TRIGGER " + TRIGGER);
                connection.commit();
                committed = true;
            } finally {
                if (!committed) {
                    connection.rollback();
                }
            }
        }
    }
}
