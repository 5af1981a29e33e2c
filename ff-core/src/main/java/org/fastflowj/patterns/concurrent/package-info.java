/**
 * The patterns' own synchronisation primitives. Not for user programs: {@code module-info} does not
 * export this package. Public so that ff-stress's jcstress tests, in their own packages, can race them.
 */
package org.fastflowj.patterns.concurrent;
