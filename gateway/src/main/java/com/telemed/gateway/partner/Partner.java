package com.telemed.gateway.partner;

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
import java.util.UUID;

/** A partner account and the hashes of its credentials. */
@Entity
@Table(name = "partners")
public class Partner extends PanacheEntityBase {

    @Id
    public UUID id;

    public String name;

    @Column(name = "api_key_hash", columnDefinition = "bpchar(64)")
    public String apiKeyHash;

    @Column(name = "publishable_key_hash", columnDefinition = "bpchar(64)")
    public String publishableKeyHash;

    @ElementCollection
    @CollectionTable(name = "partner_embed_origins", joinColumns = @JoinColumn(name = "partner_id"))
    @OrderColumn(name = "position")
    @Column(name = "origin")
    public List<String> embedOrigins = new ArrayList<>();

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "updated_at")
    public Instant updatedAt;
}
