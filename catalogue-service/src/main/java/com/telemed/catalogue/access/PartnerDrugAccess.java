package com.telemed.catalogue.access;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OrderColumn;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A partner restricted to the listed drugs. A partner without a row sees the full catalogue. */
@Entity
@Table(name = "partner_drug_access")
public class PartnerDrugAccess extends PanacheEntityBase {

    @Id
    @Column(name = "partner_id")
    public String partnerId;

    @ElementCollection
    @CollectionTable(name = "partner_drug_access_drugs", joinColumns = @JoinColumn(name = "partner_id"))
    @OrderColumn(name = "position")
    @Column(name = "drug_id")
    public List<String> drugIds = new ArrayList<>();

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "updated_at")
    public Instant updatedAt;
}
