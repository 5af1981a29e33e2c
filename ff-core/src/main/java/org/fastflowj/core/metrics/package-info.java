/**
 * A run's statistics for the tools people already run: JMX MBeans per node thread and the Prometheus
 * text format over HTTP, both reading the counters the run keeps anyway, only when asked.
 */
package org.fastflowj.core.metrics;
