package com.telemed.catalogue.drug;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.Instant;

/**
 * One SKU of a drug. Never deleted: a SKU left out of a drug's replacement stays as inactive,
 * so ids that requests hold keep resolving.
 */
@Entity
@Table(name = "skus")
public class Sku extends PanacheEntityBase {

    @Id
    public String id;

    @Column(name = "drug_id")
    public String drugId;

    /** Order of the SKU within its drug (and of its label in {@code dosages}). */
    public int position;

    public String label;

    @Column(name = "package_size")
    public BigDecimal packageSize;

    /** All three concentration columns are set, or none (not configured). */
    @Column(name = "concentration_value")
    public BigDecimal concentrationValue;

    @Column(name = "concentration_active_unit")
    public String concentrationActiveUnit;

    @Column(name = "concentration_base_unit")
    public String concentrationBaseUnit;

    public boolean active;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "updated_at")
    public Instant updatedAt;
}
