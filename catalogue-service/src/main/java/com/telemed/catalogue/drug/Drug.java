package com.telemed.catalogue.drug;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;

/** A catalogue drug and the pharmacy that fills it. Its SKUs are {@link Sku} rows keyed by drug id. */
@Entity
@Table(name = "drugs")
public class Drug extends PanacheEntityBase {

    @Id
    public String id;

    public String name;

    public String description;

    @Column(name = "default_ad_copy")
    public String defaultAdCopy;

    public String classification;

    @Column(name = "pharmacy_id")
    public String pharmacyId;

    @Column(name = "pharmacy_method")
    public String pharmacyMethod;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "updated_at")
    public Instant updatedAt;

    /** The catalogue version of this state of the drug (V3__catalogue_events.sql), taken under the row lock. */
    public long version;
}
