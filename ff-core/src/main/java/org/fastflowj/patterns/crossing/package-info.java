/**
 * What ff-dist needs of a macro data-flow task to carry it to a worker group and back: {@link
 * org.fastflowj.patterns.crossing.CrossingParameters}, its parameters with their identities and versions.
 * Exported to ff-dist only; programs never see it.
 */
package org.fastflowj.patterns.crossing;
