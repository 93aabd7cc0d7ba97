/*
   Device launcher of the box copies of the pencil transposes (src/kernels/transpose.h): one
   thread per point of the box, x fastest, running the host's row body (BoxRows in
   src/transpose/transpose.c) on a row of length 1 at the point's offsets in the source and
   target array boxes, so both give the same bits. Pack, unpack and direct copy are this one
   launch with a contiguous target or source (array box equal to the box).
*/
#include "ops.h"

typedef struct {
  long          sarr[6], box[6], tarr[6];
  const double *src, *scale;
  double        shift;
  double       *dst;
} ppe_dev_tp_args;

PPE_DEV_KERNEL(ppe_dev_tp_copy, ppe_dev_tp_args)
{
  long i = t % a->box[3], j = (t / a->box[3]) % a->box[4], k = t / (a->box[3] * a->box[4]);
  long so = ppe_tp_offset(a->sarr, a->box, i, j, k), to = ppe_tp_offset(a->tarr, a->box, i, j, k);

  ppe_tp_row(1, a->src + so, a->scale ? a->scale + so : NULL, a->shift, a->dst + to);
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTPCopy)(const double *src, const double *scale, double shift, const long sarr[6], const long box[6], const long tarr[6], double *dst, void *stream)
{
  ppe_dev_tp_args a;

  if (box[3] <= 0 || box[4] <= 0 || box[5] <= 0) return 0;
  for (int d = 0; d < 6; d++) {
    a.sarr[d] = sarr[d];
    a.box[d]  = box[d];
    a.tarr[d] = tarr[d];
  }
  a.src   = src;
  a.scale = scale;
  a.shift = shift;
  a.dst   = dst;
  PPE_DEV_LAUNCH(ppe_dev_tp_copy, box[3] * box[4] * box[5], stream, a);
  return 0;
}
