package com.telemed.shapefixture.order;

import com.telemed.shapefixture.stock.StockClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

/** Planted: a neighbour's call inside a transaction. */
@ApplicationScoped
public class OrderTransfers {

    private final StockClient stock;

    public OrderTransfers(StockClient stock) {
        this.stock = stock;
    }

    @Transactional
    public String transfer(String drugId) {
        return stock.reserve(drugId);
    }
}
