package com.acme;

/** A class in a package no test config allows. */
public final class Secret {
    public int code = 7;
}
