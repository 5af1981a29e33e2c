package org.fastflowj.stream;

/**
 * A record a user function failed on, under {@link ErrorPolicy#deadLetter(Sink)}: the operator, its
 * instance, the record and the error.
 *
 * @param operator the operator's name
 * @param instance the operator instance that failed
 * @param record the record it failed on
 * @param error what the function threw; when the dead letter was written in another group than the
 *     operator's, a copy of it that prints as it does ({@code class: message}, its first stack frames)
 */
public record DeadLetter(String operator, int instance, Object record, Throwable error) {
    /** One line: {@code operator<TAB>record<TAB>error}. */
    @Override
    public String toString() {
        return operator + "\t" + record + "\t" + error;
    }
}
