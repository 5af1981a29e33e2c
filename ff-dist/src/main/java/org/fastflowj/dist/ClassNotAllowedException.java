package org.fastflowj.dist;

/**
 * A class was about to cross groups without being allowed by the {@link SerializationConfig}: on the sending side
 * when an item (or something it holds) is written, on the receiving side when a frame names the class. The receiving
 * side refuses before the class is loaded, so no static initialiser of it runs.
 *
 * <p>Threading: an ordinary immutable exception.
 */
public final class ClassNotAllowedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String className;

    public ClassNotAllowedException(String className) {
        super(advice(className));
        this.className = className;
    }

    /** The binary name of the refused class (for an array, the name of its element class). */
    public String className() {
        return className;
    }

    private static String advice(String className) {
        int lastDot = className.lastIndexOf('.');
        String pkg = lastDot < 0 ? "" : className.substring(0, lastDot);
        String source = className.replace('$', '.');
        return "class " + className + " is not allowed to cross groups: add DFF.register(" + source
                + ".class) to the program before it runs, in every group in the same order (or DFF.allowPackage(\""
                + pkg + "\") for its whole package)";
    }
}
