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

   With variable coefficients, A = W (sigma I - D beta G), the couplings come from face
   arrays (ppe_s7_faces) that hold, for every face of the box, the geometric coupling of the
   1D tables times the face coefficient beta:

     cw = K_x(i-1/2),  ce = K_x(i+1/2),  ...   (0 where the neighbour does not exist)
     c0 = K_x(i-1/2) + K_x(i+1/2) + K_y(j-1/2) + K_y(j+1/2) + K_z(k-1/2) + K_z(k+1/2) + sigma wx wy wz

   A face on a non-periodic boundary holds the boundary term instead (Dirichlet: wy wz tb
   times the boundary cell's coefficient; Neumann: 0), so that each face appears once in the
   diagonals of both its points and the operator is exactly symmetric.

   The variable operator is applied in flux form (ppe_s7_var_apply):

     y_p = K_w (u_p - u_w) + K_e (u_p - u_e) + ... + K_t (u_p - u_t)  [+ sigma wx wy wz u_p]

   with 0 for a neighbour that does not exist (the face's boundary term then multiplies u_p),
   and the shift term added where it is not zero. It is the same operator as
   c0 u_p - sum K u_nb with fewer operations (6 differences, 6 products, 5 sums: no diagonal
   to form), and the flux across a face between equal values is exactly 0 whatever the jump of
   the coefficients (a constant is in the null space of the singular operators to the last bit).
   Measured on the host at 128^3: 1.8 -> 1.4 ns per point, the time of a loop that only reads
   the same arrays.
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

/* Face arrays of the variable operator over a box of xm x ym x zm points (x fastest). Face
   ii of row (jj, kk) in x is the face below point ii (ii = 0..xm); in y and z the faces below
   each point are rows and planes of the same layout, one more of them (ym + 1 rows per plane,
   zm + 1 planes). A NULL x array means the constant-coefficient operator. */
typedef struct {
  const double *x, *y, *z;
} ppe_s7_faces;

/* Indices of the faces below point (ii, jj, kk) in the three face arrays; the face above is
   one further in x, xm further in y and xm ym further in z. */
PPE_HD long ppe_s7_fx(long xm, long ym, long ii, long jj, long kk)
{
  return (kk * ym + jj) * (xm + 1) + ii;
}
PPE_HD long ppe_s7_fy(long xm, long ym, long ii, long jj, long kk)
{
  return (kk * (ym + 1) + jj) * xm + ii;
}
PPE_HD long ppe_s7_fz(long xm, long ym, long ii, long jj, long kk)
{
  return (kk * ym + jj) * xm + ii;
}

/* The shift term of the diagonal, sigma wx wy wz (the constant operator's rounding). */
PPE_HD double ppe_s7_shift(ppe_s7_dir X, ppe_s7_dir Y, ppe_s7_dir Z, double sigma, long i, long j, long k)
{
  return sigma * (X.w[i] * (Y.w[j] * Z.w[k]));
}

/* Coefficients of a point of the variable operator from its six face values (west, east,
   south, north, bottom, top), the shift term sw and whether each neighbour exists. */
PPE_HD ppe_s7_coef ppe_s7_face_coef(double kw, double ke, double ks, double kn, double kb, double kt, double sw, int ew, int ee, int es, int en, int eb, int et)
{
  ppe_s7_coef c;

  c.cw = ew ? kw : 0.0;
  c.ce = ee ? ke : 0.0;
  c.cs = es ? ks : 0.0;
  c.cn = en ? kn : 0.0;
  c.cb = eb ? kb : 0.0;
  c.ct = et ? kt : 0.0;
  c.c0 = kw + ke + ks + kn + kb + kt + sw;
  return c;
}

/* The same for point (ii, jj, kk) of a box, read from the face arrays F; e[f]: the neighbour
   across face f (PPE_XLO..PPE_ZHI order) exists. */
PPE_HD ppe_s7_coef ppe_s7_box_face_coef(const ppe_s7_faces *F, long xm, long ym, long ii, long jj, long kk, double sw, const int e[6])
{
  long fx = ppe_s7_fx(xm, ym, ii, jj, kk), fy = ppe_s7_fy(xm, ym, ii, jj, kk), fz = ppe_s7_fz(xm, ym, ii, jj, kk);

  return ppe_s7_face_coef(F->x[fx], F->x[fx + 1], F->y[fy], F->y[fy + xm], F->z[fz], F->z[fz + xm * ym], sw, e[0], e[1], e[2], e[3], e[4], e[5]);
}

/* The point body of the variable operator (flux form, see above) from its six face values,
   the shift term sw and the centre and neighbour values (0 for a neighbour that does not exist):
   the order of the sums is part of the single source (every back end gives these bits). */
#define PPE_S7_VAR_FLUX(kw, ke, ks, kn, kb, kt, uc, uw, ue, us, un, ub, ut) ((kw) * ((uc) - (uw)) + (ke) * ((uc) - (ue)) + (ks) * ((uc) - (us)) + (kn) * ((uc) - (un)) + (kb) * ((uc) - (ub)) + (kt) * ((uc) - (ut)))

/* The shift term is added where it is not zero (so that loops over an operator without shift,
   sigma = 0, leave it out and give the same bits). */
PPE_HD double ppe_s7_var_apply(double kw, double ke, double ks, double kn, double kb, double kt, double sw, double uc, double uw, double ue, double us, double un, double ub, double ut)
{
  double v = PPE_S7_VAR_FLUX(kw, ke, ks, kn, kb, kt, uc, uw, ue, us, un, ub, ut);

  return sw != 0.0 ? v + sw * uc : v;
}

/* The variable operator at point (ii, jj, kk) of a box from the face arrays F and the
   neighbour values; e[f]: the neighbour across face f exists (else its value is taken as 0). */
PPE_HD double ppe_s7_box_var_apply(const ppe_s7_faces *F, long xm, long ym, long ii, long jj, long kk, double sw, const int e[6], double uc, double uw, double ue, double us, double un, double ub, double ut)
{
  long fx = ppe_s7_fx(xm, ym, ii, jj, kk), fy = ppe_s7_fy(xm, ym, ii, jj, kk), fz = ppe_s7_fz(xm, ym, ii, jj, kk);

  return ppe_s7_var_apply(F->x[fx], F->x[fx + 1], F->y[fy], F->y[fy + xm], F->z[fz], F->z[fz + xm * ym], sw, uc, e[0] ? uw : 0.0, e[1] ? ue : 0.0, e[2] ? us : 0.0, e[3] ? un : 0.0, e[4] ? ub : 0.0, e[5] ? ut : 0.0);
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
