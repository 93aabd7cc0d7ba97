/*
   The host back end's launchers with the signatures of the back-end table
   (src/backend/device/device.h), gathered into PPEBackendOps_Host by host.c. Each family's
   launchers live in its <part>_host.c next to the chunked loops they call.
*/
#ifndef PPE_BACKEND_HOST_HOST_H
#define PPE_BACKEND_HOST_HOST_H

#include <backend/device/device.h>

/* stencil_host.c: the operator on the rank's box, one phase; the dot products of a fused
   apply in the row order of the host's sweep, after it or within it (rowdot); several
   Chebyshev steps on the rank-local block in one wavefront (ci_sweep) */
int PPEHostStencil(const ppe_dev_box *B, const double *x, const ppe_dev_halo *H, double *y, int phase, const ppe_dev_ci *ci, void *stream);
int PPEHostStencilDot(const ppe_dev_box *B, int nd, const double *y, const double *u0, const double *u1, double *work, double *s, void *stream);
int PPEHostStencilRowDot(const ppe_dev_box *B, const double *x, const ppe_dev_halo *H, double *y, int phase, int nd, const double *u0, const double *u1, double *rows, double *s, void *stream);
int PPEHostStencilCISweep(const ppe_dev_box *B, const ppe_dev_ci_sweep *S, void *stream);

/* krylov_host.c: dot products in the grouped order of the device reductions, the sum of
   the entries in index order, the Chebyshev and Bi-CGSTAB vector steps, y = a x + b y + c */
int PPEHostDot(long n, int nd, const double *y, const double *u0, const double *u1, double *work, double *s, void *stream);
int PPEHostSum(long n, const double *x, double *work, double *s, void *stream);
int PPEHostCIScale(long n, const double *dinv, const double *bin, double *b, void *stream);
int PPEHostCIFirst(long n, double theta, double c1, const double *dinv, const double *b, const double *t, double *z, double *y, void *stream);
int PPEHostCIStep(long n, double rho, double rho_old, double s2, double d2, const double *dinv, const double *b, const double *t, const double *y, const double *z, double *w, void *stream);
int PPEHostBCGSAxpy(long n, double alpha, const double *w, double *r, void *stream);
int PPEHostBCGSUpdateX(long n, double alpha, double omega, const double *ph, const double *rh, double *x, void *stream);
int PPEHostBCGSUpdateR(long n, double omega, const double *t, const double *rt, double *r, double *work, double *s, void *stream);
int PPEHostBCGSUpdateP(long n, double beta, double omega, const double *r, const double *w, double *p, void *stream);
int PPEHostAXPBYC(long n, double alpha, const double *x, double beta, double *y, double gamma, void *stream);

/* tsblock_host.c: the tall-skinny block kernels */
int PPEHostTSGram(long n, int nx, const double *const *x, int ny, const double *const *y, int band, double *work, double *out, void *stream);
int PPEHostTSCombine(long n, int k, const double *const *q, int m, double *const *s, const double *B, double *work, void *stream);
int PPEHostTSAxpy(long n, int k, const double *const *q, const double *const *aq, const double *coef, double *x, double *r, void *stream);
int PPEHostTSCheb(long n, double c1, const double *az, double c2, const double *z, const double *zold, double *out, void *stream);

/* tridiag_host.c: the tridiagonal kernels, full blocks of PPE_TD_G groups by their
   instances with constant strides, any other block by the generic call */
int PPEHostTridiag(int k, int fly, ppe_td_lanes R, long n, const PPETdArgs *x, void *stream);

/* tileilu_host.c: the tile ILU sweeps, xyz tile by tile, zyx in SIMD over the lanes of a
   group; gather and scatter a tile row at a time; the zyx apply fused chunk by chunk */
int PPEHostTileILUXYZ(const ppe_dev_tiles *T, const double *F, const double *r, double *z, void *stream);
int PPEHostTileILUZYX(const ppe_dev_tiles *T, const double *F, double *v, void *stream);
int PPEHostTileILUGather(const ppe_dev_tiles *T, const double *r, double *v, void *stream);
int PPEHostTileILUScatter(const ppe_dev_tiles *T, const double *v, double *z, void *stream);
int PPEHostTileILUFused(const ppe_dev_tiles *T, const double *F, const double *r, double *v, double *z, void *stream);

/* transpose_host.c: box copies, a row at a time */
int PPEHostTPCopy(const double *src, const double *scale, double shift, const long sarr[6], const long box[6], const long tarr[6], double *dst, void *stream);

#endif
