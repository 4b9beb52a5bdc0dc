package com.telemed.catalogue.access;

import com.telemed.catalogue.drug.CatalogueDrug;
import com.telemed.catalogue.drug.DrugService;
import com.telemed.catalogue.drug.DrugView;
import com.telemed.catalogue.drug.Pharmacy;
import com.telemed.common.error.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

/** What another service needs about one drug for one partner, read in one transaction. */
@ApplicationScoped
public class DrugLookupService {

    /** {@code drug}: the partner-visible record; {@code orderable}: the partner may order it. */
    public record DrugLookup(DrugView drug, boolean orderable, Pharmacy pharmacy) {
    }

    private final DrugService drugs;
    private final DrugAccessService access;

    public DrugLookupService(DrugService drugs, DrugAccessService access) {
        this.drugs = drugs;
        this.access = access;
    }

    @Transactional
    public DrugLookup lookup(String drugId, String partnerId) {
        CatalogueDrug drug = drugs.find(drugId).orElseThrow(() -> ApiException.notFound("Drug not found"));
        return new DrugLookup(DrugView.of(drug), access.mayAccess(partnerId, drugId), Pharmacy.of(drug.drug()));
    }
}
