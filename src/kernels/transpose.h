/*
   Single-source body of the box copies of the pencil transposes (src/transpose): pack a box
   of an array into a contiguous buffer, unpack a buffer into a box, or copy a box between
   two arrays, optionally times a scale array (on the source's layout) and plus a shift.

   Boxes are {x0, y0, z0, nx, ny, nz} in global indices; an array box is the box an array
   stores, x fastest. A contiguous buffer is the array box equal to the box itself. The host
   copies a row of the box at a time; a device thread one point (a row of length 1).
*/
#ifndef PPE_KERNELS_TRANSPOSE_H
#define PPE_KERNELS_TRANSPOSE_H

#include "hd.h"

/* Offset, in array box arr, of point (i, j, k) of box (indices relative to the box). */
PPE_HD long ppe_tp_offset(const long arr[6], const long box[6], long i, long j, long k)
{
  return ((box[2] + k - arr[2]) * arr[4] + (box[1] + j - arr[1])) * arr[3] + (box[0] + i - arr[0]);
}

/* n consecutive values: t = s * scale + shift; without scale t = s + shift; products alone
   when shift is zero (so a pack and a direct copy give the same bits). */
PPE_HD void ppe_tp_row(long n, const double *s, const double *scale, double shift, double *t)
{
  if (scale) {
    if (shift != 0.0)
      for (long i = 0; i < n; i++) t[i] = s[i] * scale[i] + shift;
    else
      for (long i = 0; i < n; i++) t[i] = s[i] * scale[i];
  } else if (shift != 0.0) {
    for (long i = 0; i < n; i++) t[i] = s[i] + shift;
  } else if (s != t) {
    for (long i = 0; i < n; i++) t[i] = s[i];
  }
}

#endif
