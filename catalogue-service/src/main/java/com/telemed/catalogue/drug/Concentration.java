package com.telemed.catalogue.drug;

import java.math.BigDecimal;

/** A SKU's concentration on the wire: {@code { value, activeUnit, baseUnit }}. */
public record Concentration(BigDecimal value, String activeUnit, String baseUnit) {
}
