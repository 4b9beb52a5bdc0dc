package com.telemed.catalogue.drug;

import static com.telemed.catalogue.CatalogueFixtures.drugBody;
import static com.telemed.catalogue.CatalogueFixtures.drugId;
import static com.telemed.catalogue.CatalogueFixtures.putDrug;
import static com.telemed.catalogue.CatalogueFixtures.sku;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.telemed.testkit.quarkus.InfrastructureResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@QuarkusTest
@WithTestResource(value = InfrastructureResource.class, scope = TestResourceScope.GLOBAL)
class ConcurrentDrugPutTest {

    @Test
    void concurrentPutsOfOneNewDrugAllSucceedAndTheLastWins() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 5; round++) {
                String id = drugId("race");
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<Integer>> calls = new ArrayList<>();
                for (int thread = 0; thread < 2; thread++) {
                    String label = "dose-" + thread;
                    calls.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        return putDrug(id, drugBody("Race " + label, sku(label))).statusCode();
                    }));
                }
                for (Future<Integer> call : calls) {
                    assertEquals(200, call.get(30, TimeUnit.SECONDS));
                }

                List<Map<String, Object>> stored = given().when().get("/ops/v1/drugs")
                        .then().statusCode(200).extract().path("drugs.findAll { it.id == '%s' }".formatted(id));
                assertEquals(1, stored.size());
                // Each PUT made one new SKU; the later one left the earlier one's inactive.
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> skus = (List<Map<String, Object>>) stored.get(0).get("skus");
                assertEquals(List.of(true, false), skus.stream().map(sku -> sku.get("active")).toList());
                assertEquals("Race " + skus.get(0).get("label"), stored.get(0).get("name"));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
