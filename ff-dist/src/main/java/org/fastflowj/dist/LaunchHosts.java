package org.fastflowj.dist;

import java.util.List;
import java.util.regex.Pattern;

/**
 * What a config may name as the machine a launcher starts a group on, in a group's {@code host} and in
 * {@code checkpoints.restart.spareHosts}: a machine (a name or address, as ssh takes it), or {@code
 * netns:NAME}, a network namespace of the launcher's machine. Any other {@code word:} form is an error, a
 * near miss of {@code netns:} named as such.
 *
 * <p>Threading: stateless.
 */
final class LaunchHosts {
    /** An IPv6 address literal (with a zone, if any): its colons are the address's, not a host form's. */
    private static final Pattern IPV6_LITERAL = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(%.+)?");
    /**
     * A network namespace name as {@code ip netns add} makes it, a file of /run/netns: no '/', not
     * {@code .} or {@code ..}; kept to characters that need no quoting in a shell.
     */
    private static final Pattern NAMESPACE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}");

    /**
     * Why a host that begins with '-' (or a {@code user@} before one) is refused: the launcher passes it to
     * ssh, which would read it as an option.
     */
    static final String OPTION_LIKE_HOST = "a host (or user@host) must not start with '-', which ssh"
            + " would read as an option; expected a host name or address";

    private LaunchHosts() {}

    /** Throws the error at the value at {@code path} of {@code json} unless {@code text} is a launch host. */
    static void check(LocatedJson json, String path, String text) {
        if (text.startsWith("-") || text.contains("@-") || text.startsWith("@")) {
            throw json.errorAtValue(path, "\"" + text + "\": " + OPTION_LIKE_HOST);
        }
        int colon = text.indexOf(':');
        if (colon < 0 || text.startsWith("[") || IPV6_LITERAL.matcher(text).matches()) {
            return;
        }
        String form = text.substring(0, colon + 1);
        String expected = "expected a host name or address (the port is the endpoint's), or \""
                + GroupConfig.NETNS_HOST_PREFIX + "NAME\" to start the group in network namespace NAME of the"
                + " launcher's machine";
        if (!form.equals(GroupConfig.NETNS_HOST_PREFIX)) {
            String hint = KeySuggestion.nearest(form, List.of(GroupConfig.NETNS_HOST_PREFIX))
                    .map(candidate -> " (did you mean '" + candidate + "'?)")
                    .orElse("");
            throw json.errorAtValue(path, "\"" + text + "\" is no host" + hint + "; " + expected);
        }
        String namespace = text.substring(colon + 1);
        if (!NAMESPACE_NAME.matcher(namespace).matches()) {
            throw json.errorAtValue(
                    path,
                    "\"" + text + "\": "
                            + (namespace.isEmpty()
                                    ? "no namespace name"
                                    : "'" + namespace + "' is not a" + " network namespace name")
                            + "; expected \"" + GroupConfig.NETNS_HOST_PREFIX
                            + "NAME\", NAME of letters, digits, '_', '.' and '-' as `ip netns list` shows it");
        }
    }
}
