package com.telemed.web.console.request;

import com.fasterxml.jackson.databind.JsonNode;
import com.telemed.web.ops.OpsApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The prescription record as signing an item will freeze it (operations-api.md, "prescription": the record copies the
 * drug name, SKU label, concentration, package size and classification at signing and never changes afterwards), read
 * from the catalogue as it is now: the item's selected SKU, else its requested one; without either, the active SKUs the
 * form may name. Pure: the catalogue is given.
 */
final class PrescriptionRecords {

    static final String UNREAD = "The catalogue could not be read: the record is shown when it can be.";

    private PrescriptionRecords() {
    }

    static List<RequestView.ItemActions> withRecords(List<RequestView.ItemActions> actions, List<OpsApi.Item> items,
                                                     List<OpsApi.Drug> catalogue) {
        List<RequestView.ItemActions> shown = new ArrayList<>();
        for (RequestView.ItemActions action : actions) {
            OpsApi.Item item = items.stream().filter(each -> action.itemId().equals(each.itemId())).findFirst().orElse(null);
            shown.add(action.withRecord(item == null ? List.of() : record(item, catalogue)));
        }
        return shown;
    }

    static List<RequestView.Fact> record(OpsApi.Item item, List<OpsApi.Drug> catalogue) {
        if (catalogue.isEmpty()) {
            return List.of(new RequestView.Fact("Record", UNREAD));
        }
        Optional<OpsApi.Drug> drug = catalogue.stream().filter(each -> Objects.equals(each.id(), item.drugId())).findFirst();
        if (drug.isEmpty()) {
            return List.of(new RequestView.Fact("Drug", item.drugId() + " (not in the catalogue)"));
        }
        List<RequestView.Fact> facts = new ArrayList<>();
        facts.add(new RequestView.Fact("Drug", drug.get().name()));
        facts.add(new RequestView.Fact("Classification", text(drug.get().classification())));
        String skuId = item.selectedSkuId() != null ? item.selectedSkuId() : item.requestedSkuId();
        List<OpsApi.Sku> skus = drug.get().skus() == null ? List.of() : drug.get().skus();
        Optional<OpsApi.Sku> sku = skus.stream().filter(each -> Objects.equals(each.id(), skuId)).findFirst();
        if (sku.isPresent()) {
            facts.add(new RequestView.Fact("SKU", sku.get().label() + " (" + sku.get().id() + ")"));
            facts.add(new RequestView.Fact("Concentration", concentration(sku.get().concentration())));
            facts.add(new RequestView.Fact("Package size", number(sku.get().packageSize())));
        } else {
            String active = skus.stream().filter(OpsApi.Sku::active).map(each -> each.label() + " (" + each.id() + ")")
                    .collect(Collectors.joining(", "));
            facts.add(new RequestView.Fact("SKU", "Name one in the form" + (active.isEmpty() ? "" : ": " + active)));
        }
        return facts;
    }

    private static String concentration(JsonNode concentration) {
        if (concentration == null || concentration.isNull() || !concentration.isObject()) {
            return "-";
        }
        return concentration.path("value").asText() + " " + concentration.path("activeUnit").asText() + "/"
                + concentration.path("baseUnit").asText();
    }

    private static String number(JsonNode value) {
        return value == null || value.isNull() || value.isMissingNode() ? "-" : value.asText();
    }

    private static String text(String value) {
        return value == null ? "-" : value;
    }
}
