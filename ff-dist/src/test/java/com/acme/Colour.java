package com.acme;

/** An enum for the allowed-package tests. */
public enum Colour {
    RED,
    GREEN {
        @Override
        public String toString() {
            return "green (a constant with a body, so a subclass of Colour)";
        }
    }
}
