/**
 * A run's statistics for people and the tools they already run: a live web page of the graph and its
 * rates, JMX MBeans per node thread and the Prometheus text format over HTTP, all reading the counters
 * the run keeps anyway, only when asked.
 */
package org.fastflowj.core.metrics;
