package org.fastflowj.launcher.apps;

/**
 * A group that prints {@code <count>} numbered lines and exits 0, enough output to fill a pipe or a small
 * disk: the first argument that is not one of DFF's ({@code --DFF_...}) is the count.
 */
public final class LinesApp {
    private LinesApp() {}

    public static void main(String[] args) {
        long count = 0;
        for (String arg : args) {
            if (!arg.startsWith("--DFF_")) {
                count = Long.parseLong(arg);
                break;
            }
        }
        for (long i = 0; i < count; i++) {
            System.out.println("line " + i + " of the group's output, long enough to fill a buffer soon");
        }
    }
}
