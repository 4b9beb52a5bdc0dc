package com.telemed.shapefixture.stock;

import com.telemed.shapefixture.order.Orders;

/** Planted: {@code stock} needs {@code order} back, a cycle. */
public class StockReservations {

    public Orders orders;
}
