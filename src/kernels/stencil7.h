/*
   Single-source body of the 7-point operator A = W (sigma I - Lap_h).

   Plain C over arrays (no PETSc objects): the host back end calls these from its row
   loops, the CUDA and HIP back ends from one thread per point. Everything a point needs
   comes from the 1D tables of its three directions (ppe_s7_dir), indexed by the global
   index along that direction:

     y_p = c0 u_p - cw u_w - ce u_e - cs u_s - cn u_n - cb u_b - ct u_t
     cw  = wy wz tlo_x(i),  ce = wy wz thi_x(i),  cs = wx wz tlo_y(j), ...
     c0  = wy wz d_x(i) + wx wz d_y(j) + wx wy d_z(k) + sigma wx wy wz

   A neighbour that does not exist (non-periodic end) has a zero coefficient; callers pass
   the centre value in its place so that nothing outside the arrays is read.
*/
#ifndef PPE_KERNELS_STENCIL7_H
#define PPE_KERNELS_STENCIL7_H

#include "hd.h"

/* Faces of a rank's box, in the order of PPEFace (include/ppekit/grid.h): the index of the
   halo face buffers and of the neighbour flags nb[] on the host and on a device. */
enum {
  PPE_XLO,
  PPE_XHI,
  PPE_YLO,
  PPE_YHI,
  PPE_ZLO,
  PPE_ZHI
};

/* The 1D tables of one direction (see PPEGrid1d). */
typedef struct {
  const double *w;   /* weights */
  const double *tlo; /* coupling to the lower neighbour */
  const double *thi; /* coupling to the upper neighbour */
  const double *d;   /* diagonal of the 1D operator */
} ppe_s7_dir;

/* Coefficients of one point. */
typedef struct {
  double c0, cw, ce, cs, cn, cb, ct;
} ppe_s7_coef;

PPE_HD ppe_s7_coef ppe_s7_point_coef(ppe_s7_dir X, ppe_s7_dir Y, ppe_s7_dir Z, double sigma, long i, long j, long k)
{
  ppe_s7_coef c;
  double      wx = X.w[i], wy = Y.w[j], wz = Z.w[k];
  double      wyz = wy * wz, wxz = wx * wz, wxy = wx * wy;

  c.cw = wyz * X.tlo[i];
  c.ce = wyz * X.thi[i];
  c.cs = wxz * Y.tlo[j];
  c.cn = wxz * Y.thi[j];
  c.cb = wxy * Z.tlo[k];
  c.ct = wxy * Z.thi[k];
  c.c0 = wyz * X.d[i] + wxz * Y.d[j] + wxy * Z.d[k] + sigma * (wx * wyz);
  return c;
}

/* The point formula, written once for scalars and for the host's SIMD vector types (same
   operations in the same order, so every lane gives the scalar result bitwise). */
#define PPE_S7_EXPR(c0, cw, ce, cs, cn, cb, ct, uc, uw, ue, us, un, ub, ut) ((c0) * (uc) - (cw) * (uw) - (ce) * (ue) - (cs) * (us) - (cn) * (un) - (cb) * (ub) - (ct) * (ut))

/* The point body: one output value from the centre and its six neighbours. */
PPE_HD double ppe_s7_apply(const ppe_s7_coef *c, double uc, double uw, double ue, double us, double un, double ub, double ut)
{
  return PPE_S7_EXPR(c->c0, c->cw, c->ce, c->cs, c->cn, c->cb, c->ct, uc, uw, ue, us, un, ub, ut);
}

#endif
