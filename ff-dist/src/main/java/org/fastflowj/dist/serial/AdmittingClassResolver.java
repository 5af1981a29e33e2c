package org.fastflowj.dist.serial;

import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import java.util.IdentityHashMap;
import java.util.Map;
import org.fastflowj.dist.ClassNotAllowedException;
import org.fastflowj.dist.SerializationConfig;

/**
 * Kryo's class resolver with an admission check on classes that travel by name (unregistered ones).
 *
 * <p>Receiving side: {@link #getTypeByName} is where Kryo turns a class name read from the stream into a class, just
 * before it would call {@code Class.forName}; refusing there means a refused class is never loaded, let alone
 * initialised. Registered classes travel by id and need no check: registering them was the permission.
 *
 * <p>Sending side: {@link #writeName} refuses the same classes, so a missing registration shows up in a one-process
 * test rather than on a remote receiver; so does a hidden class (a lambda's), which no receiver can find by its name.
 */
final class AdmittingClassResolver extends DefaultClassResolver {
    private final SerializationConfig config;
    /** Classes already checked on the sending side (a hit costs one identity lookup, no allocation). */
    private final Map<Class<?>, Boolean> admittedForWriting = new IdentityHashMap<>();
    /** The class admitted last: a stream of one class skips even the lookup. */
    private Class<?> lastAdmitted;

    AdmittingClassResolver(SerializationConfig config) {
        this.config = config;
    }

    @Override
    @SuppressWarnings("rawtypes") // Kryo's signature
    protected void writeName(Output output, Class type, Registration registration) {
        if (type != lastAdmitted && admittedForWriting.get(type) == null) {
            if (type.isHidden()) {
                // A lambda's class: no other JVM can find it by this name, so the receiver could never read it.
                throw new HiddenClassException(type);
            }
            String name = type.getName();
            if (!config.allowsClassName(name)) {
                throw new ClassNotAllowedException(refusedName(name));
            }
            admittedForWriting.put(type, Boolean.TRUE);
        }
        lastAdmitted = type;
        super.writeName(output, type, registration);
    }

    @Override
    protected Class<?> getTypeByName(String className) {
        Class<?> known = super.getTypeByName(className);
        if (known != null) {
            return known; // admitted (and loaded) the first time this name was seen
        }
        if (!config.allowsClassName(className)) {
            throw new ClassNotAllowedException(refusedName(className));
        }
        return null; // Kryo loads it now, without initialising it
    }

    private static String refusedName(String className) {
        String element = elementName(className);
        return element == null ? className : element;
    }

    private static String elementName(String className) {
        int dims = 0;
        while (dims < className.length() && className.charAt(dims) == '[') {
            dims++;
        }
        if (dims > 0 && dims < className.length() && className.charAt(dims) == 'L' && className.endsWith(";")) {
            return className.substring(dims + 1, className.length() - 1);
        }
        return dims == 0 ? className : null;
    }
}
