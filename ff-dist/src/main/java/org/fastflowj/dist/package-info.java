/** Distributed groups: the public API ({@code DFF}), the config model and the serializer SPI. */
package org.fastflowj.dist;
