package com.telemed.shapefixture.report;

import com.telemed.shapefixture.order.OrderEvents;

/** Planted: publishes through another feature's {@code *Events}. */
public class OrderReport {

    private final OrderEvents events;

    public OrderReport(OrderEvents events) {
        this.events = events;
    }

    public void placed(String drugId) {
        events.placed(drugId);
    }
}
