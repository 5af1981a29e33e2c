package org.fastflowj.dist.run;

import java.util.List;
import org.fastflowj.core.BuildingBlock;
import org.fastflowj.core.RunOptions;
import org.fastflowj.core.graph.Graph;
import org.fastflowj.core.graph.GraphCut;
import org.fastflowj.core.runtime.Execution;
import org.fastflowj.core.runtime.Executor;
import org.fastflowj.core.runtime.GraphRunner;
import org.fastflowj.core.runtime.control.RunHooks;
import org.fastflowj.dist.ControlLine;
import org.fastflowj.dist.DFF;
import org.fastflowj.dist.DffConfig;
import org.fastflowj.dist.GroupsPrintedException;
import org.fastflowj.dist.serial.ItemCodec;

/**
 * ff-core's way into ff-dist ({@link java.util.ServiceLoader}): with a group selected in the settings of
 * the thread that starts the run ({@link DFF#settings()}) a program that has groups runs only that group ({@link GroupRun}); with the serialization check on, a
 * one-process run sends every item through the codec; otherwise ff-core runs the graph as usual.
 */
public final class DistributedGraphRunner implements GraphRunner {
    /**
     * A config whose groups list their blocks makes the program's groups ({@link ConfigGroups}), in every
     * process that has it: each group's, the one asked only its groups, and a whole run given the config,
     * so that all of them see one layout and a bad one fails before any group starts.
     */
    @Override
    public void placeGroups(BuildingBlock root) {
        DffConfig config = DFF.settings().config();
        if (config != null && config.listsBlocks()) {
            ConfigGroups.place(root, config);
        }
    }

    @Override
    public Execution start(Graph graph, RunOptions options) {
        DFF.Settings settings = DFF.settings();
        if (settings.printGroups()) {
            throw printGroups(graph);
        }
        if (settings.group() != null && !GraphCut.groups(graph).isEmpty()) {
            return GroupRun.start(graph, options, settings);
        }
        if (settings.checkSerialization()) {
            return Executor.start(graph, options, checkingHooks(ProgramPackages.admit(graph, settings)));
        }
        return null; // no group here (or a graph without groups): the shared-memory run, untouched
    }

    @Override
    public Execution startGroup(Graph graph, RunOptions options) {
        DFF.Settings settings = DFF.settings();
        if (settings.printGroups()) {
            throw printGroups(graph);
        }
        if (settings.group() != null && !GraphCut.groups(graph).isEmpty()) {
            return GroupRun.start(graph, options, settings);
        }
        return null;
    }

    /**
     * The program was asked only its groups: they are printed, and the exception unwinds the program
     * before anything runs; its {@code main}, not this library, ends the process.
     */
    private static GroupsPrintedException printGroups(Graph graph) {
        List<String> groups = List.copyOf(GraphCut.groups(graph));
        ControlLine.emit(System.out, "DFF_GROUPS: " + String.join(",", groups));
        return new GroupsPrintedException(groups);
    }

    /** Each node thread gets a codec of its own and sends a deserialized copy of every item. */
    static RunHooks checkingHooks(DFF.Settings settings) {
        return RunHooks.NONE.itemFilters(() -> new ItemCodec(settings.serialization())::roundTrip);
    }
}
