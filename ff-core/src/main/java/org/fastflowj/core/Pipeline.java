package org.fastflowj.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Connects building blocks in a chain: each stage's output is the next stage's input. Stages may be any
 * block, nested to any depth; where the edges differ in width (a farm's workers into one node, one node
 * into an all-to-all's L-Workers, ...) the compiler fans in, fans out or shuffles automatically.
 *
 * <pre>
 *   stage0 ──▶ stage1 ──▶ ... ──▶ stageN          wrapAround(): stageN ──feedback──▶ stage0
 * </pre>
 *
 * <p>With {@link #wrapAround()} the last stage's output goes back to the first stage on an unbounded
 * feedback channel; EOS does not circulate, so the first stage ends the loop by returning EOS.
 */
public final class Pipeline extends BuildingBlock {
    private final List<BuildingBlock> stages = new ArrayList<>();
    private boolean wrapAround;

    public Pipeline(BuildingBlock... stages) {
        for (BuildingBlock stage : stages) {
            add(stage);
        }
    }

    /** Appends a stage. */
    public Pipeline add(BuildingBlock stage) {
        stages.add(Objects.requireNonNull(stage, "stage"));
        return this;
    }

    /** Adds a feedback channel from the last stage back to the first. */
    public Pipeline wrapAround() {
        this.wrapAround = true;
        return this;
    }

    public List<BuildingBlock> stages() {
        return Collections.unmodifiableList(stages);
    }

    public boolean isWrapAround() {
        return wrapAround;
    }

    @Override
    public String toString() {
        return "Pipeline(" + stages.size() + " stages)";
    }

    /** Names the block's cluster and the stem of its threads' names ({@link BuildingBlock#named}). */
    @Override
    public Pipeline named(String name) {
        super.named(name);
        return this;
    }
}
