package org.fastflowj.launcher.apps;

/** A group that needs nothing but the JDK (a one-class jar for the CDS test): prints its arguments. */
public final class PrintGroup {
    private PrintGroup() {}

    public static void main(String[] args) {
        System.out.println("group with " + String.join(" ", args));
    }
}
