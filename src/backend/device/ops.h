/*
   The launchers of one device back end, named by PPE_DEV_NAME (suffix _CUDA, _HIP or _Emu):
   defined by the family files of this folder (stencil_dev.h, krylov_dev.h, tridiag_dev.h,
   tileilu_dev.h, tsblock_dev.h, transpose_dev.h) and gathered into the back end's
   PPEBackendOps table by device_dev.h. Arguments as in device.h.
*/
#ifndef PPE_BACKEND_DEVICE_OPS_H
#define PPE_BACKEND_DEVICE_OPS_H

#include "dev.h"

/* shared by the reductions of krylov_dev.h and tsblock_dev.h (defined in krylov_dev.h):
   work[ncols*nc + q] = sum over the nc chunks c of work[q*nc + c], q < ncols */
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevReduce)(long nc, int ncols, double *work, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevStencil)(const ppe_dev_box *B, const double *x, const ppe_dev_halo *H, double *y, int phase, const ppe_dev_ci *ci, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevStencilDot)(const ppe_dev_box *B, int nd, const double *y, const double *u0, const double *u1, double *work, double *s, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevDot)(long n, int nd, const double *y, const double *u0, const double *u1, double *work, double *s, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevSum)(long n, const double *x, double *work, double *s, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevCIScale)(long n, const double *dinv, const double *bin, double *b, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevCIFirst)(long n, double theta, double c1, const double *dinv, const double *b, const double *t, double *z, double *y, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevCIStep)(long n, double rho, double rho_old, double s2, double d2, const double *dinv, const double *b, const double *t, const double *y, const double *z, double *w, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevAXPBYC)(long n, double alpha, const double *x, double beta, double *y, double gamma, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevBCGSAxpy)(long n, double alpha, const double *w, double *r, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevBCGSUpdateX)(long n, double alpha, double omega, const double *ph, const double *rh, double *x, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevBCGSUpdateR)(long n, double omega, const double *t, const double *rt, double *r, double *work, double *s, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevBCGSUpdateP)(long n, double beta, double omega, const double *r, const double *w, double *p, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTridiag)(int k, int fly, ppe_td_lanes R, long n, const PPETdArgs *x, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTileILUXYZ)(const ppe_dev_tiles *T, const double *F, const double *r, double *z, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTileILUZYX)(const ppe_dev_tiles *T, const double *F, double *v, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTileILUGather)(const ppe_dev_tiles *T, const double *r, double *v, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTileILUScatter)(const ppe_dev_tiles *T, const double *v, double *z, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTSGram)(long n, int nx, const double *const *x, int ny, const double *const *y, int band, double *work, double *out, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTSCombine)(long n, int k, const double *const *q, int m, double *const *s, const double *B, double *work, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTSAxpy)(long n, int k, const double *const *q, const double *const *aq, const double *coef, double *x, double *r, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTSCheb)(long n, double c1, const double *az, double c2, const double *z, const double *zold, double *out, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTPCopy)(const double *src, const double *scale, double shift, const long sarr[6], const long box[6], const long tarr[6], double *dst, void *stream);

/* Copy and stream wait, for the table of device_dev.h and the launchers that move small host
   arrays: static in every file that includes this one, so that no file of a back end calls
   into another (the emulation's memory is host memory, its streams empty handles). */
static inline int PPE_DEV_NAME(PPEDevCopy)(void *dst, const void *src, size_t bytes, ppe_dev_copy_kind kind, void *stream)
{
  if (!bytes) return 0;
#if defined(PPE_DEV_EMU)
  (void)kind;
  (void)stream;
  memmove(dst, src, bytes);
  return 0;
#else
  return (int)PPE_DEV_RT(MemcpyAsync)(dst, src, bytes, kind == PPE_DEV_H2D ? PPE_DEV_RT_H2D : kind == PPE_DEV_D2H ? PPE_DEV_RT_D2H : PPE_DEV_RT_D2D, (ppe_dev_stream_t)stream);
#endif
}

static inline int PPE_DEV_NAME(PPEDevSync)(void *stream)
{
#if defined(PPE_DEV_EMU)
  (void)stream;
  return 0;
#else
  return (int)PPE_DEV_RT(StreamSynchronize)((ppe_dev_stream_t)stream);
#endif
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevFFTPre)(const ppe_fft_lines *F, const double *x, double *z, double *ends, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevFFTPlan)(long L, long lines, double *z, void **plan, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevFFTExec)(void *plan, double *z, void *stream);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevFFTDestroy)(void *plan);
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevFFTPost)(const ppe_fft_lines *F, const double *z, const double *ends, double *y, void *stream);

#endif
