/*
   Single-source bodies of the tile ILU(0) sweeps (PC tileilu).

   Plain C over arrays (no PETSc objects), read by the host back end and by CUDA/HIP.
   A tile is a box of ex x ey x ez points swept in lexicographic order (x fastest). Its
   ILU(0) factors M = L U of the 7-point operator restricted to the tile are, per point p
   with lower neighbours w, s, b and upper neighbours e, n, t inside the tile:

     forward  (L unit lower):  y_p = r_p - lb_p y_b - ls_p y_s - lw_p y_w
     backward (U = D + upper): z_p = dinv_p y_p - ut_p z_t - un_p z_n - ue_p z_e

   with lb_p = a_pb / d_b (multipliers), ut_p = a_pt / d_p (upper couplings scaled by the
   inverse pivot), dinv_p = 1 / d_p. A neighbour outside the tile has a zero coefficient and
   the caller passes 0.0 for its value, so both layouts compute bit for bit the same numbers.

   Two layouts of the factors and of the values:
     xyz: the natural box order; the factors are PPE_TILEILU_NCOEF arrays of nloc values
          (kind-major). One tile is swept with the box strides: ppe_tileilu_tile_xyz (one GPU
          thread per tile, or the host one tile after the other).
     zyx: groups of `lanes` tiles, every tile padded to the full tile shape; within a group
          the values are [q][lane] and the factors [q][kind][lane], q the point's position in
          the tile, so the same position of consecutive tiles is contiguous (the SZ packing
          of batched tridiagonal solvers applied to tiles). The host runs the lanes of a
          group in SIMD; a GPU runs one thread per lane (ppe_tileilu_lane_zyx), coalesced.
*/
#ifndef PPE_KERNELS_TILEILU_H
#define PPE_KERNELS_TILEILU_H

#include "hd.h"

/* Kinds of factor values per point, in storage order. A symmetric operator stores only the
   first three and the inverse pivot (PPE_TILEILU_NCOEF_SYM): its scaled upper coupling
   a_pe / d_p equals the multiplier a_ep / d_p of its east neighbour (same for n and t). */
enum {
  PPE_TILEILU_LW,   /* multiplier of the west (x-1) neighbour */
  PPE_TILEILU_LS,   /* multiplier of the south (y-1) neighbour */
  PPE_TILEILU_LB,   /* multiplier of the bottom (z-1) neighbour */
  PPE_TILEILU_UE,   /* east (x+1) coupling / pivot */
  PPE_TILEILU_UN,   /* north (y+1) coupling / pivot */
  PPE_TILEILU_UT,   /* top (z+1) coupling / pivot */
  PPE_TILEILU_DINV, /* inverse pivot */
  PPE_TILEILU_NCOEF
};
#define PPE_TILEILU_NCOEF_SYM 4
#define PPE_TILEILU_DINV_SYM  3

/* Tiles per group of the zyx layout on the host: 8 doubles, one AVX-512 register or two
   AVX2 registers per operation. */
#define PPE_TILEILU_SZ 8

/* The two point formulas, written once for scalars and for the host's SIMD vector types
   (same operations in the same order, so every lane gives the scalar result bitwise). */
#define PPE_TILEILU_FWD_EXPR(r, lb, yb, ls, ys, lw, yw)       ((r) - (lb) * (yb) - (ls) * (ys) - (lw) * (yw))
#define PPE_TILEILU_BWD_EXPR(y, dinv, ut, zt, un, zn, ue, ze) ((dinv) * (y) - (ut) * (zt) - (un) * (zn) - (ue) * (ze))

/* The two point bodies. */
PPE_HD double ppe_tileilu_fwd(double r, double lb, double yb, double ls, double ys, double lw, double yw)
{
  return PPE_TILEILU_FWD_EXPR(r, lb, yb, ls, ys, lw, yw);
}

PPE_HD double ppe_tileilu_bwd(double y, double dinv, double ut, double zt, double un, double zn, double ue, double ze)
{
  return PPE_TILEILU_BWD_EXPR(y, dinv, ut, zt, un, zn, ue, ze);
}

/*
   One tile of the xyz layout: forward then backward sweep, z = M_tile^-1 r on the tile's
   points. F: the factor arrays (kind k at F + k nloc; sym: the symmetric storage); p0:
   index of the tile's first point in the box; sy, sz: box strides of y and z; ex, ey, ez:
   the tile's extent. r and z are box arrays (z may not alias r).
*/
PPE_HD void ppe_tileilu_tile_xyz(const double *F, int sym, long nloc, long sy, long sz, long p0, long ex, long ey, long ez, const double *r, double *z)
{
  const double *LW = F + PPE_TILEILU_LW * nloc, *LS = F + PPE_TILEILU_LS * nloc, *LB = F + PPE_TILEILU_LB * nloc;
  const double *UE = sym ? 0 : F + PPE_TILEILU_UE * nloc, *UN = sym ? 0 : F + PPE_TILEILU_UN * nloc, *UT = sym ? 0 : F + PPE_TILEILU_UT * nloc;
  const double *DI = F + (sym ? PPE_TILEILU_DINV_SYM : PPE_TILEILU_DINV) * nloc;

  for (long c = 0; c < ez; c++)
    for (long b = 0; b < ey; b++) {
      long p = p0 + b * sy + c * sz;
      for (long a = 0; a < ex; a++, p++) {
        double yb = c > 0 ? z[p - sz] : 0.0, ys = b > 0 ? z[p - sy] : 0.0, yw = a > 0 ? z[p - 1] : 0.0;
        z[p] = ppe_tileilu_fwd(r[p], LB[p], yb, LS[p], ys, LW[p], yw);
      }
    }
  for (long c = ez - 1; c >= 0; c--)
    for (long b = ey - 1; b >= 0; b--) {
      long p = p0 + b * sy + c * sz + ex - 1;
      for (long a = ex - 1; a >= 0; a--, p--) {
        double zt = c < ez - 1 ? z[p + sz] : 0.0, zn = b < ey - 1 ? z[p + sy] : 0.0, ze = a < ex - 1 ? z[p + 1] : 0.0;
        double ut = sym ? (c < ez - 1 ? LB[p + sz] : 0.0) : UT[p];
        double un = sym ? (b < ey - 1 ? LS[p + sy] : 0.0) : UN[p];
        double ue = sym ? (a < ex - 1 ? LW[p + 1] : 0.0) : UE[p];
        z[p]      = ppe_tileilu_bwd(z[p], DI[p], ut, zt, un, zn, ue, ze);
      }
    }
}

/*
   One lane (one tile) of a zyx group, as a GPU thread runs it: forward then backward in
   place on the group's values v[q lanes + lane]. F: the group's factors [q][kind][lane]
   (nc kinds: PPE_TILEILU_NCOEF, or PPE_TILEILU_NCOEF_SYM when sym); tx, ty, tz: the full
   tile shape (padded points have zero factors and zero values).
*/
PPE_HD void ppe_tileilu_lane_zyx(const double *F, int sym, long lanes, long lane, long tx, long ty, long tz, double *v)
{
  long txy = tx * ty, q = 0, nc = sym ? PPE_TILEILU_NCOEF_SYM : PPE_TILEILU_NCOEF, kd = sym ? PPE_TILEILU_DINV_SYM : PPE_TILEILU_DINV;

  for (long c = 0; c < tz; c++)
    for (long b = 0; b < ty; b++)
      for (long a = 0; a < tx; a++, q++) {
        const double *f  = F + q * nc * lanes + lane;
        double        yb = c > 0 ? v[(q - txy) * lanes + lane] : 0.0, ys = b > 0 ? v[(q - tx) * lanes + lane] : 0.0, yw = a > 0 ? v[(q - 1) * lanes + lane] : 0.0;
        v[q * lanes + lane] = ppe_tileilu_fwd(v[q * lanes + lane], f[PPE_TILEILU_LB * lanes], yb, f[PPE_TILEILU_LS * lanes], ys, f[PPE_TILEILU_LW * lanes], yw);
      }
  for (long c = tz - 1; c >= 0; c--)
    for (long b = ty - 1; b >= 0; b--)
      for (long a = tx - 1; a >= 0; a--) {
        const double *f;
        double        zt, zn, ze, ut, un, ue;
        q                   = a + tx * b + txy * c;
        f                   = F + q * nc * lanes + lane;
        zt                  = c < tz - 1 ? v[(q + txy) * lanes + lane] : 0.0;
        zn                  = b < ty - 1 ? v[(q + tx) * lanes + lane] : 0.0;
        ze                  = a < tx - 1 ? v[(q + 1) * lanes + lane] : 0.0;
        ut                  = sym ? (c < tz - 1 ? F[((q + txy) * nc + PPE_TILEILU_LB) * lanes + lane] : 0.0) : f[PPE_TILEILU_UT * lanes];
        un                  = sym ? (b < ty - 1 ? F[((q + tx) * nc + PPE_TILEILU_LS) * lanes + lane] : 0.0) : f[PPE_TILEILU_UN * lanes];
        ue                  = sym ? (a < tx - 1 ? F[((q + 1) * nc + PPE_TILEILU_LW) * lanes + lane] : 0.0) : f[PPE_TILEILU_UE * lanes];
        v[q * lanes + lane] = ppe_tileilu_bwd(v[q * lanes + lane], f[kd * lanes], ut, zt, un, zn, ue, ze);
      }
}

#endif
