/** The {@code ff-launcher} command: starts, watches and stops a program's groups. */
module org.fastflowj.launcher {
    requires org.fastflowj.dist;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.databind;
    requires info.picocli;
    requires org.slf4j;

    // picocli fills the commands' and their mixins' @Option fields reflectively, and makes Main's version
    // provider and the duration converter.
    opens org.fastflowj.launcher to
            info.picocli;
    opens org.fastflowj.launcher.commands to
            info.picocli;
    opens org.fastflowj.launcher.hosts to
            info.picocli;
}
