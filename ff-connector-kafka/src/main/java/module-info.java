/**
 * Kafka for FastFlow-J's streams: {@link org.fastflowj.connector.kafka.KafkaSources} reads topics into a
 * {@code StreamJob}, {@link org.fastflowj.connector.kafka.KafkaSinks} writes a stream to a topic, both
 * through Kafka's own client ({@code kafka-clients}, an automatic module named {@code kafka.clients}).
 */
module org.fastflowj.connector.kafka {
    requires transitive org.fastflowj.stream;
    requires transitive kafka.clients;
    requires org.slf4j;

    exports org.fastflowj.connector.kafka;
}
