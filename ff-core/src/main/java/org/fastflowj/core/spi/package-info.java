/**
 * The engine SPI: the few types the API package ({@code org.fastflowj.core}) and the engine packages
 * ({@code runtime}, {@code graph}, {@code optimize}, {@code metrics}) share. It depends on no other
 * FastFlow-J package; the API depends only on it; the engine depends on both. Not for user programs:
 * {@code module-info} exports it only to {@code org.fastflowj.dist}.
 *
 * <p>{@code Sentinel} holds the only control values, one instance each, recognised by reference: {@code
 * EOS}, {@code GO_ON} and the ordered farm's {@code TASK_DONE} and {@code ORDER_END}. They are never user
 * data ({@code MultiOutputNode} refuses to send one) and {@code GO_ON} never travels on a channel.
 *
 * <p>The engine reaches a node's protected methods ({@code svc}, {@code svcInit}, ...) through {@code
 * NodeLifecycle}, whose only implementation is nested in {@code Node}; the engine keeps it in {@code
 * runtime.NodeAccess}, which takes it once and only from {@code Node}'s nest ({@code
 * NodeAccessClosedTest}). The engine talks back to a node through {@code NodeContext}.
 */
package org.fastflowj.core.spi;
