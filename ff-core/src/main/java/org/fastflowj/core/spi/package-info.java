/**
 * The engine SPI: the few types the API package ({@code org.fastflowj.core}) and the engine packages
 * ({@code runtime}, {@code graph}, {@code optimize}, {@code metrics}) share. It depends on no other
 * FastFlow-J package; the API depends only on it; the engine depends on both. Not for user programs:
 * {@code module-info} exports it only to {@code org.fastflowj.dist}.
 */
package org.fastflowj.core.spi;
