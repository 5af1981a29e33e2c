package org.example.app;

import java.util.List;
import org.fastflowj.core.Node;
import org.fastflowj.core.Pipeline;

/** A three-stage pipeline: words in, their lengths through the middle stage, a total at the end. */
final class WordLengths {
    private WordLengths() {}

    static long totalLetters() {
        // tag::pipeline[]
        long[] total = {0}; // written by the sink's thread only, read after the run has ended
        Node<Void, String> words = Node.source(List.of("structured", "parallel", "streaming"));
        Node<String, Integer> length = Node.of(String::length);
        Node<Integer, Void> sum = Node.sink(n -> total[0] += n);
        new Pipeline(words, length, sum).runAndWaitEnd(); // one thread per stage, joined by queues
        // end::pipeline[]
        return total[0];
    }
}
