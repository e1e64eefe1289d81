/* Included inside a parfor body (test/lower/twice_directive.pc): its guard
 * lets the first copy of the body in, and only the first. */
#ifndef GUARDED_BODY_H
#define GUARDED_BODY_H
int k = i * 2;
#endif
