package com.telemed.shapefixture.order;

/** Planted: named {@code *Resource}, no JAX-RS resource. */
public class OrderStatusResource {
}
