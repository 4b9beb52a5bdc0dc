package com.telemed.shapefixture.time;

/** Planted: a package named after a technique. */
public class Clocks {
}
