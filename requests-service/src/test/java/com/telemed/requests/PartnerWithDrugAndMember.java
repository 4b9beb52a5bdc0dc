package com.telemed.requests;

import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What most requests-service tests start from, before each test: the fake neighbours reset, a new
 * partner allowed one drug ({@link #dosages()}, one active SKU each) and one of its members,
 * Grace Hopper. A test's own {@code @BeforeEach} runs after this one. After each test the
 * neighbours are reset again, so a failure a test set up never reaches the next.
 */
public abstract class PartnerWithDrugAndMember {

    @Inject
    protected FakeNeighbours neighbours;

    protected String partner;
    protected String drugId;
    protected String memberId;

    /** The drug's dosage labels. */
    protected List<String> dosages() {
        return List.of("0.25mg", "0.5mg");
    }

    @BeforeEach
    protected void seedPartnerDrugAndMember() {
        neighbours.reset();
        partner = "partner-" + UUID.randomUUID();
        drugId = "drug-" + UUID.randomUUID().toString().substring(0, 8);
        neighbours.drug(drugId, "Semaglutide", dosages(), partner);
        memberId = neighbours.seedMember(partner, "Grace", "Hopper", "grace+" + UUID.randomUUID() + "@example.com");
    }

    @AfterEach
    protected void healNeighbours() {
        neighbours.reset();
    }
}
