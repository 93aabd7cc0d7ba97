/*
   Host launcher of the box copies of the pencil transposes (src/kernels/transpose.h): the
   rows of the box, x fastest, each through the single-source row body (a device thread runs
   the same body on one point), so both give the same bits.
*/
#include <backend/host/host.h>

int PPEHostTPCopy(const double *src, const double *scale, double shift, const long sarr[6], const long box[6], const long tarr[6], double *dst, void *stream)
{
  (void)stream;
  for (long k = 0; k < box[5]; k++)
    for (long j = 0; j < box[4]; j++) {
      long so = ppe_tp_offset(sarr, box, 0, j, k);

      ppe_tp_row(box[3], src + so, scale ? scale + so : NULL, shift, dst + ppe_tp_offset(tarr, box, 0, j, k));
    }
  return 0;
}
