package org.fastflowj.patterns;

import java.util.List;
import java.util.ListIterator;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.concurrent.atomic.AtomicBoolean;
import org.fastflowj.core.Node;

/**
 * Evolves a population until a termination condition holds (FastFlow's {@code poolEvolution}): each round
 * selects candidates from the population, evolves every candidate in parallel, and filters the population
 * and the evolved candidates into the next population.
 *
 * <pre>
 *   while (!termination.done(P, env)) {
 *       N = selection.select(pf, P, env);
 *       N[i] = evolution.evolve(N[i], env, thread)     for every i, in parallel on the workers
 *       P = filter.filter(pf, P, N, env);
 *   }
 * </pre>
 *
 * <p>The evolution step runs on the pattern's own {@link ParallelFor}, in one static block per worker (as
 * FastFlow's {@code PARFOR_STATIC(0)}), and {@code evolve} gets the number of the worker running it
 * ({@code 0..workers-1}), so it can keep per-worker state without locks. Selection, filter and termination
 * run on the thread that calls {@link #run}; selection and filter get the same {@code ParallelFor} to run
 * their own parallel loops on the workers (FastFlow passes its {@code ParallelForReduce}). The workers
 * start in the constructor, park between rounds and runs at no CPU cost, and end in {@link #close()}.
 *
 * <p>The population is evolved in place: the caller's list holds each round's result (the filter's list is
 * copied into it when it is another list), so it must be modifiable and resizable. The environment
 * {@code env} is the user functions' shared state, handed to each of them as is; what selection or filter
 * write into it before the evolution step is visible to {@code evolve}.
 *
 * <p>Failures: a user function that throws fails {@link #run} with a {@link PoolEvolutionException} naming
 * the function and the round, with what it threw as the cause; so does a selection or filter that returns
 * {@code null}. The pattern stays usable for the next run.
 *
 * <p>Threading: one run at a time (also through {@link #stage}); a run started while another is in
 * progress, from another thread or from inside a user function, is refused.
 *
 * @param <T> the type of the individuals
 * @param <E> the type of the environment shared by the user functions
 */
public final class PoolEvolution<T, E> implements AutoCloseable {
    private final ParallelFor pf;
    private final Selection<T, E> selection;
    private final Evolution<T, E> evolution;
    private final Filter<T, E> filter;
    private final Termination<T, E> termination;
    /** Bound once: a round allocates nothing for its evolution step. */
    private final ChunkBody evolveChunk = this::evolveChunk;

    private final AtomicBoolean running = new AtomicBoolean();
    private volatile boolean closed;

    // the evolution step's input: written before each step, published to the workers by the loop's hand-off
    private List<T> candidates;
    private E env;

    /**
     * Starts {@code workers} workers for the evolution step (and for the loops of selection and filter).
     *
     * @throws IllegalArgumentException if {@code workers < 1}
     */
    public PoolEvolution(
            int workers,
            Selection<T, E> selection,
            Evolution<T, E> evolution,
            Filter<T, E> filter,
            Termination<T, E> termination) {
        if (workers < 1) {
            throw new IllegalArgumentException("PoolEvolution(" + workers + " workers): at least 1 worker is needed");
        }
        this.selection = Objects.requireNonNull(selection, "selection");
        this.evolution = Objects.requireNonNull(evolution, "evolution");
        this.filter = Objects.requireNonNull(filter, "filter");
        this.termination = Objects.requireNonNull(termination, "termination");
        this.pf = new ParallelFor(workers);
    }

    /** The number of workers of the evolution step. */
    public int workers() {
        return pf.workers();
    }

    /**
     * Evolves {@code population} in place until {@code termination} holds; a population for which it holds
     * at once is left as it is, and selection is not called.
     *
     * @param population the initial population, a modifiable list (an {@code ArrayList}) that ends holding
     *     the final one
     * @param env the environment handed to every user function; may be {@code null}
     * @return {@code population}
     * @throws IllegalArgumentException if {@code population} is unmodifiable or of fixed size (checked
     *     before any user function runs)
     * @throws PoolEvolutionException if a user function throws, or selection or filter returns {@code null}
     * @throws IllegalStateException if the pattern is closed, or another run of it is in progress
     */
    public List<T> run(List<T> population, E env) {
        Objects.requireNonNull(population, "population");
        if (closed) {
            throw new IllegalStateException("PoolEvolution is closed: its workers have ended");
        }
        if (!running.compareAndSet(false, true)) {
            throw new IllegalStateException("PoolEvolution.run while another run of the same pattern is in progress:"
                    + " runs are one at a time (give each thread or farm worker its own PoolEvolution)");
        }
        try {
            requireResizable(population);
            evolve(population, env);
        } finally {
            candidates = null;
            this.env = null;
            running.set(false);
        }
        return population;
    }

    /**
     * The pattern as a stream stage (FastFlow's {@code poolEvolution} is a node): each input population is
     * evolved in place with {@code env}, as by {@link #run}, and sent on. The stage uses this pattern's
     * workers and does not close them: close the pattern after the stream ended. A failing run fails the
     * stream's run.
     *
     * @param env the environment of every population's run; may be {@code null}
     * @return a new node; one stage of a pattern may run at a time
     */
    public Node<List<T>, List<T>> stage(E env) {
        if (closed) {
            throw new IllegalStateException("PoolEvolution is closed: its workers have ended");
        }
        return new Stage<>(this, env);
    }

    /**
     * Ends the workers, after the evolution step running on them (if any) ended; later runs throw
     * {@link IllegalStateException}. Closing twice does nothing.
     */
    @Override
    public void close() {
        closed = true;
        pf.close();
    }

    @Override
    public String toString() {
        return "PoolEvolution(" + pf.workers() + " workers)";
    }

    private void evolve(List<T> population, E env) {
        for (long round = 0; !terminated(population, env, round); round++) {
            List<T> selected = select(population, env, round);
            evolveAll(selected, env, round);
            List<T> next = filter(population, selected, env, round);
            if (next != population) {
                copyInto(population, next);
            }
        }
    }

    private boolean terminated(List<T> population, E env, long round) {
        try {
            return termination.done(population, env);
        } catch (Exception | Error e) {
            throw new PoolEvolutionException("termination", round, "failed", e);
        }
    }

    private List<T> select(List<T> population, E env, long round) {
        List<T> selected;
        try {
            selected = selection.select(pf, population, env);
        } catch (Exception | Error e) {
            throw new PoolEvolutionException("selection", round, "failed", e);
        }
        if (selected == null) {
            throw new PoolEvolutionException(
                    "selection", round, "returned null (return the candidates, an empty list for none)", null);
        }
        if (!selected.isEmpty()) {
            // the evolution step writes every candidate back: refuse a read-only list here, not on a worker
            try {
                selected.set(0, selected.get(0));
            } catch (UnsupportedOperationException e) {
                throw new PoolEvolutionException(
                        "selection",
                        round,
                        "returned a list the evolution cannot write into ("
                                + selected.getClass().getName() + ": return a modifiable list such as an ArrayList)",
                        e);
            }
        }
        return selected;
    }

    private void evolveAll(List<T> selected, E env, long round) {
        int n = selected.size();
        if (n == 0) {
            return;
        }
        candidates = selected;
        this.env = env;
        try {
            pf.parallelForIdx(0, n, 1, 0, evolveChunk);
        } catch (ParallelForException e) {
            if (e.getCause() instanceof EvolutionFailed failed) {
                throw new PoolEvolutionException(
                        "evolution", round, "failed on candidate " + failed.index, failed.getCause());
            }
            throw e;
        }
    }

    private void evolveChunk(long start, long end, int thread) {
        List<T> items = candidates;
        E e = env;
        // -1: the loop ran on the calling thread, alone, so it may use any one worker's number
        int worker = Math.max(thread, 0);
        int i = (int) start;
        try {
            if (items instanceof RandomAccess) {
                for (; i < end; i++) {
                    items.set(i, evolution.evolve(items.get(i), e, worker));
                }
            } else {
                // a linked list: walk the block once instead of seeking every index from an end
                ListIterator<T> it = items.listIterator(i);
                for (; i < end; i++) {
                    it.set(evolution.evolve(it.next(), e, worker));
                }
            }
        } catch (Exception | Error failure) {
            throw new EvolutionFailed(i, failure);
        }
    }

    private List<T> filter(List<T> population, List<T> selected, E env, long round) {
        List<T> next;
        try {
            next = filter.filter(pf, population, selected, env);
        } catch (Exception | Error e) {
            throw new PoolEvolutionException("filter", round, "failed", e);
        }
        if (next == null) {
            throw new PoolEvolutionException(
                    "filter", round, "returned null (return the next population, an empty list for none)", null);
        }
        return next;
    }

    /**
     * Overwrites {@code target} with {@code source} element by element, so an ArrayList keeps its array; the
     * size changes last, so a {@code source} that is a view of {@code target} (a {@code subList}) still works.
     */
    private static <T> void copyInto(List<T> target, List<T> source) {
        ListIterator<T> to = target.listIterator();
        for (T item : source) {
            if (to.hasNext()) {
                to.next();
                to.set(item);
            } else {
                to.add(item);
            }
        }
        if (to.hasNext()) {
            target.subList(to.nextIndex(), target.size()).clear();
        }
    }

    /** Refuses, before any user function runs, a list the final population could not be copied into. */
    private static <T> void requireResizable(List<T> population) {
        try {
            if (population.isEmpty()) {
                population.addAll(List.of()); // a no-op, which an unmodifiable list refuses all the same
            } else {
                // shrink, then grow back into the room just freed: a fixed-size list refuses, nothing is allocated
                population.add(population.remove(population.size() - 1));
            }
        } catch (UnsupportedOperationException e) {
            throw new IllegalArgumentException(
                    "PoolEvolution.run: the population list ("
                            + population.getClass().getName() + ") is"
                            + " unmodifiable or of fixed size, but the final population is left in it: pass a"
                            + " modifiable list such as an ArrayList",
                    e);
        }
    }

    /** Carries the failing candidate's index through the loop's failure; made only when evolve fails. */
    private static final class EvolutionFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        final int index;

        EvolutionFailed(int index, Throwable cause) {
            super(null, cause, false, false);
            this.index = index;
        }
    }

    private static final class Stage<T, E> extends Node<List<T>, List<T>> {
        private final PoolEvolution<T, E> pool;
        private final E env;

        Stage(PoolEvolution<T, E> pool, E env) {
            this.pool = pool;
            this.env = env;
        }

        @Override
        protected List<T> svc(List<T> population) {
            return pool.run(population, env);
        }

        @Override
        public String toString() {
            return "PoolEvolution stage (" + pool.workers() + " workers)";
        }
    }

    /**
     * Chooses the candidates of a round.
     *
     * @param <T> the type of the individuals
     * @param <E> the type of the environment
     */
    @FunctionalInterface
    public interface Selection<T, E> {
        /**
         * Returns the candidates to evolve, a list the pattern writes the evolved candidates into (a new
         * {@code ArrayList}, or {@code population} itself to evolve it in place); runs on the caller of
         * {@link PoolEvolution#run}.
         *
         * @param pf the pattern's workers, for parallel loops over the population
         */
        List<T> select(ParallelFor pf, List<T> population, E env) throws Exception;
    }

    /**
     * Evolves one candidate, on a worker.
     *
     * @param <T> the type of the individuals
     * @param <E> the type of the environment
     */
    @FunctionalInterface
    public interface Evolution<T, E> {
        /**
         * Returns the evolved candidate (possibly {@code individual} itself, changed); runs on the workers,
         * in parallel with the other candidates.
         *
         * @param thread the number of the worker calling, {@code 0..workers-1}: no other call runs with the
         *     same number at the same time
         */
        T evolve(T individual, E env, int thread) throws Exception;
    }

    /**
     * Makes the next population.
     *
     * @param <T> the type of the individuals
     * @param <E> the type of the environment
     */
    @FunctionalInterface
    public interface Filter<T, E> {
        /**
         * Returns the next population from the current one and the evolved candidates (either list itself,
         * changed, or a new one); runs on the caller of {@link PoolEvolution#run}.
         *
         * @param pf the pattern's workers, for parallel loops
         */
        List<T> filter(ParallelFor pf, List<T> population, List<T> evolved, E env) throws Exception;
    }

    /**
     * Ends the evolution.
     *
     * @param <T> the type of the individuals
     * @param <E> the type of the environment
     */
    @FunctionalInterface
    public interface Termination<T, E> {
        /**
         * Whether {@code population} is final; asked before every round, on the caller of
         * {@link PoolEvolution#run}.
         */
        boolean done(List<T> population, E env) throws Exception;
    }
}
