package org.example.app;

import org.fastflowj.dist.DFF;

/**
 * The template's entry point: {@code java -jar target/ff-app.jar pipeline|farm|groups}. Started by the
 * launcher ({@code ff-launcher run -c app.json -- java -jar target/ff-app.jar groups}), each process runs
 * one group of {@link TwoGroups}; started plainly, everything runs in this process.
 */
public final class App {
    private App() {}

    public static void main(String[] args) {
        // tag::main[]
        args = DFF.init(args); // takes --DFF_GName=G1 --DFF_Config=app.json (the launcher's), returns the rest
        String example = args.length > 0 ? args[0] : "groups";
        switch (example) {
            case "pipeline" -> System.out.println("pipeline: " + WordLengths.totalLetters() + " letters");
            case "farm" -> System.out.println("farm: sum of squares = " + SquaresFarm.sumOfSquares(1_000));
            case "groups" -> TwoGroups.run(1_000);
            default -> {
                System.err.println("ff-app: unknown example '" + example + "': expected pipeline, farm or groups");
                System.exit(2);
            }
        }
        // end::main[]
    }
}
