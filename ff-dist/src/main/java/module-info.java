/**
 * FastFlow-J's distributed groups: programs see {@code org.fastflowj.dist} (the {@code DFF} entry point,
 * the config model and the serializer SPI). The runner that cuts a graph into groups plugs into ff-core
 * as a {@code GraphRunner} service.
 */
module org.fastflowj.dist {
    requires transitive org.fastflowj.core;
    requires com.esotericsoftware.kryo;
    requires com.fasterxml.jackson.core;
    requires com.fasterxml.jackson.databind;
    requires io.netty.buffer;
    requires io.netty.codec;
    requires io.netty.common;
    requires io.netty.handler;
    requires io.netty.transport;
    requires io.netty.transport.classes.epoll;
    requires java.naming;
    requires org.jctools.core;
    requires org.objenesis;
    requires org.slf4j;

    exports org.fastflowj.dist;

    provides org.fastflowj.core.runtime.GraphRunner with
            org.fastflowj.dist.run.DistributedGraphRunner;
}
