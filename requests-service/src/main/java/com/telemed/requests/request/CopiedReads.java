package com.telemed.requests.request;

import com.telemed.requests.catalogue.CatalogueCopy;
import com.telemed.requests.catalogue.DrugLookup;
import com.telemed.requests.member.MemberCopies;
import com.telemed.requests.member.MemberSnapshot;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;

/**
 * What a create by {@code memberId} with an item reads first, in one round trip (issue 23): the member's
 * copy ({@link MemberCopies#CURRENT}) and the drug's ({@link CatalogueCopy#LOOKUP}), each statement as it
 * is, side by side in one. What either copy lacks is then asked of its service, as when read alone.
 */
@ApplicationScoped
public class CopiedReads {

    static final String BOTH = "SELECT m.*, d.* FROM (SELECT 1) AS one LEFT JOIN (" + MemberCopies.CURRENT
            + ") AS m ON true LEFT JOIN (" + CatalogueCopy.LOOKUP + ") AS d ON true";

    /** Both reads; each empty when its copy has nothing current. */
    public record Both(Optional<MemberSnapshot> member, Optional<DrugLookup> drug) {
    }

    private final AgroalDataSource dataSource;
    private final CatalogueCopy catalogue;

    public CopiedReads(AgroalDataSource dataSource, CatalogueCopy catalogue) {
        this.dataSource = dataSource;
        this.catalogue = catalogue;
    }

    /** Whether the drug's copy answers lookups yet ({@link CatalogueCopy#synced}); until then only the member is read here. */
    public boolean drugsCopied() {
        return catalogue.synced();
    }

    public Both read(String partnerId, UUID memberId, String drugId) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(BOTH)) {
            statement.setString(1, partnerId);
            statement.setObject(2, memberId);
            statement.setString(3, partnerId);
            statement.setString(4, drugId);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return new Both(MemberCopies.read(row, 1, memberId), catalogue.read(row, 7, drugId));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the member and drug copies", e);
        }
    }
}
