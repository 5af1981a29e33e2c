package com.acme;

import java.util.function.Supplier;

/** An item whose field holds a lambda, as a user may write before knowing items cross JVMs. */
public final class LazyOrder {
    public String name = "order";
    public Supplier<String> lazyCountry = () -> "IT";
}
