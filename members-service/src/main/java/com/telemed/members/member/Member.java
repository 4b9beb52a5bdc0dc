package com.telemed.members.member;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * A partner's member (table {@code members}, Flyway V3). Every read goes through
 * {@link #findOwned}, so a member of another partner is never seen; {@link #exists} only tells
 * whether some partner has a member with an id. Holds patient data: never log it.
 *
 * <p>Column {@code search_text} (V6) is deliberately not mapped: PostgreSQL generates it from the
 * names and email on every insert and update, and only the list's SQL reads it
 * ({@link MemberQueries#SEARCH_CONDITION}). Mapped, Hibernate would try to write it.
 */
@Entity
@Table(name = "members")
public class Member extends PanacheEntityBase {

    @Id
    @Column(name = "id", nullable = false, updatable = false)
    public UUID id;

    @Column(name = "partner_id", nullable = false, updatable = false)
    public String partnerId;

    @Column(name = "first_name", nullable = false)
    public String firstName;

    @Column(name = "last_name", nullable = false)
    public String lastName;

    @Column(name = "email", nullable = false)
    public String email;

    @Column(name = "phone")
    public String phone;

    /** {@code YYYY-MM-DD} as sent; only the format is validated. */
    @Column(name = "date_of_birth", nullable = false)
    public String dateOfBirth;

    @Column(name = "state", nullable = false)
    public String state;

    @Column(name = "status", nullable = false)
    public String status;

    /** Accepted on create and echoed only in the create response. */
    @Column(name = "gender")
    public String gender;

    @Column(name = "street1", nullable = false)
    public String street1;

    @Column(name = "street2")
    public String street2;

    @Column(name = "city", nullable = false)
    public String city;

    @Column(name = "address_state", nullable = false)
    public String addressState;

    @Column(name = "zip_code", nullable = false)
    public String zipCode;

    @Column(name = "shipping_street1")
    public String shippingStreet1;

    @Column(name = "shipping_street2")
    public String shippingStreet2;

    @Column(name = "shipping_city")
    public String shippingCity;

    @Column(name = "shipping_state")
    public String shippingState;

    @Column(name = "shipping_zip_code")
    public String shippingZipCode;

    @Column(name = "created_at", nullable = false, updatable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /**
     * Moves by one with every change of the member (V10); 1 on create. requests-service keeps a
     * copy of the member and trusts it only at or above the version fenced before an update
     * commits ({@link MemberService#update}). A plain column, not JPA's {@code @Version}:
     * {@link MemberService} sets it itself, to the very value it fenced.
     */
    @Column(name = "version", nullable = false)
    public long version;

    /** The member with this id if it belongs to this partner. */
    public static Optional<Member> findOwned(String partnerId, UUID id) {
        return find("id = ?1 and partnerId = ?2", id, partnerId).firstResultOptional();
    }

    /**
     * Whether any partner has a member with this id: a count, never the row, so another partner's
     * member is told from an unknown one without being read ({@link MemberQueries#access}).
     */
    public static boolean exists(UUID id) {
        return count("id", id) > 0;
    }

    /** As {@link #findOwned}, with the row locked until the transaction ends. */
    public static Optional<Member> findOwnedForUpdate(String partnerId, UUID id) {
        return find("id = ?1 and partnerId = ?2", id, partnerId).withLock(LockModeType.PESSIMISTIC_WRITE)
                .firstResultOptional();
    }

    public AddressView address() {
        return new AddressView(street1, street2, city, addressState, zipCode);
    }

    public void address(AddressView address) {
        street1 = address.street1();
        street2 = address.street2();
        city = address.city();
        addressState = address.state();
        zipCode = address.zipCode();
    }

    /** Null when the member has no shipping address (the home address is used). */
    public AddressView shippingAddress() {
        if (shippingStreet1 == null) {
            return null;
        }
        return new AddressView(shippingStreet1, shippingStreet2, shippingCity, shippingState, shippingZipCode);
    }

    public void shippingAddress(AddressView address) {
        shippingStreet1 = address == null ? null : address.street1();
        shippingStreet2 = address == null ? null : address.street2();
        shippingCity = address == null ? null : address.city();
        shippingState = address == null ? null : address.state();
        shippingZipCode = address == null ? null : address.zipCode();
    }
}
