/*
   Device launcher of the matrix-free 7-point operator (src/kernels/stencil7.h), plain or with
   the Chebyshev step fused (src/kernels/chebyci.h): one thread per point of the rank's box.

   With face coefficients (B->K.x) every point applies the flux form of its own faces
   (ppe_s7_box_var_apply), as the host's rows do.
   A thread makes the same choices as the host's row loops (src/backend/host/stencil_host.c),
   so both give the same bits: the coefficients of the row (those of i = 1, x being uniform)
   except at a physical x end, neighbour values from the box, from the halo faces across a
   face with a neighbour, or the centre value where the neighbour does not exist (zero
   coefficient). Phases: CORE is every point that needs no halo value, SURFACE the others;
   a launch of one phase runs a thread per point of the box and the other phase's threads
   return at once. The dot products of a fused apply (stencil_dot) take one thread per row of
   the box and the row order of the host's sweep, then the fixed-order sum of the rows.
*/
#include "ops.h"

typedef struct {
  ppe_dev_box   B;
  ppe_dev_halo  H;
  ppe_dev_ci    ci;
  int           fused; /* write the Chebyshev step ci.w instead of y */
  int           phase;
  const double *x;
  double       *y;
} ppe_dev_s7_args;

PPE_DEV_KERNEL(ppe_dev_s7, ppe_dev_s7_args)
{
  const ppe_dev_box *B  = &a->B;
  long               xm = B->xm, ym = B->ym, zm = B->zm;
  long               ii = t % xm, jj = (t / xm) % ym, kk = t / (xm * ym);
  long               i = B->xs + ii, j = B->ys + jj, k = B->zs + kk;
  int                surface;
  const double      *x = a->x, *uc;
  double             uw, ue, us, un, ub, ut, v;
  ppe_s7_coef        c;

  surface = (jj == 0 && B->nb[PPE_YLO]) || (jj == ym - 1 && B->nb[PPE_YHI]) || (kk == 0 && B->nb[PPE_ZLO]) || (kk == zm - 1 && B->nb[PPE_ZHI]) || (ii == 0 && B->nb[PPE_XLO]) || (ii == xm - 1 && B->nb[PPE_XHI]);
  if ((a->phase == PPE_DEV_CORE && surface) || (a->phase == PPE_DEV_SURFACE && !surface)) return;
  uc = x + t;
  uw = ii > 0 ? uc[-1] : (B->nb[PPE_XLO] ? a->H.f[PPE_XLO][kk * ym + jj] : *uc);
  ue = ii < xm - 1 ? uc[1] : (B->nb[PPE_XHI] ? a->H.f[PPE_XHI][kk * ym + jj] : *uc);
  us = jj > 0 ? uc[-xm] : (B->nb[PPE_YLO] ? a->H.f[PPE_YLO][kk * xm + ii] : *uc);
  un = jj < ym - 1 ? uc[xm] : (B->nb[PPE_YHI] ? a->H.f[PPE_YHI][kk * xm + ii] : *uc);
  ub = kk > 0 ? uc[-xm * ym] : (B->nb[PPE_ZLO] ? a->H.f[PPE_ZLO][jj * xm + ii] : *uc);
  ut = kk < zm - 1 ? uc[xm * ym] : (B->nb[PPE_ZHI] ? a->H.f[PPE_ZHI][jj * xm + ii] : *uc);
  if (B->K.x) {
    const int e[6] = {ii > 0 || B->nb[PPE_XLO], ii < xm - 1 || B->nb[PPE_XHI], jj > 0 || B->nb[PPE_YLO], jj < ym - 1 || B->nb[PPE_YHI], kk > 0 || B->nb[PPE_ZLO], kk < zm - 1 || B->nb[PPE_ZHI]};

    v = ppe_s7_box_var_apply(&B->K, xm, ym, ii, jj, kk, ppe_s7_shift(B->X, B->Y, B->Z, B->sigma, i, j, k), e, *uc, uw, ue, us, un, ub, ut);
  } else {
    if (!B->per[0] && (i == 0 || i == B->N[0] - 1)) c = ppe_s7_point_coef(B->X, B->Y, B->Z, B->sigma, i, j, k);
    else c = ppe_s7_point_coef(B->X, B->Y, B->Z, B->sigma, 1, j, k);
    v = ppe_s7_apply(&c, *uc, uw, ue, us, un, ub, ut);
  }
  if (a->fused) {
    const ppe_dev_ci *ci = &a->ci;
    a->ci.w[t]           = ppe_ci_point(ci->rho, ci->rho_old, ci->s2, ci->d2, ci->dinv ? ci->dinv[t] : 1.0, ci->b[t], v, *uc, ci->z[t]);
  } else a->y[t] = v;
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevStencil)(const ppe_dev_box *B, const double *x, const ppe_dev_halo *H, double *y, int phase, const ppe_dev_ci *ci, void *stream)
{
  ppe_dev_s7_args a;

  a.B     = *B;
  a.H     = *H;
  a.fused = ci ? 1 : 0;
  if (ci) a.ci = *ci;
  else memset(&a.ci, 0, sizeof(a.ci));
  a.phase = phase;
  a.x     = x;
  a.y     = y;
  PPE_DEV_LAUNCH(ppe_dev_s7, B->xm * B->ym * B->zm, stream, a);
  return 0;
}

/* ---- the dot products of an apply, in the order of the host's fused apply + dot ---- */

typedef struct {
  ppe_dev_box   B;
  const double *y, *u0, *u1;
  double       *w;
  long          nr; /* rows of the box, ym zm */
} ppe_dev_s7_dot_args;

/* thread (q, row): the row's partial of y . u_q as the host's sweep makes it (the x ends of
   a core row next to an x neighbour added last, ppe_s7_row_dot) */
PPE_DEV_KERNEL(ppe_dev_s7_dot, ppe_dev_s7_dot_args)
{
  const ppe_dev_box *B = &a->B;
  long               q = t / a->nr, row = t % a->nr, jj = row % B->ym, kk = row / B->ym;
  int                surface = (jj == 0 && B->nb[PPE_YLO]) || (jj == B->ym - 1 && B->nb[PPE_YHI]) || (kk == 0 && B->nb[PPE_ZLO]) || (kk == B->zm - 1 && B->nb[PPE_ZHI]);
  const double      *u       = q ? a->u1 : a->u0;

  a->w[t] = ppe_s7_row_dot(B->xm, !surface && B->nb[PPE_XLO], !surface && B->nb[PPE_XHI], a->y + row * B->xm, u + row * B->xm);
}

/* s[q] = y . u_q over the box, q < nd: the row partials, then their sum in row order
   (PPEDevReduce), the bits of the host's fused apply + dot. work: PPE_DEV_ROW_RED_WORK. */
PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevStencilDot)(const ppe_dev_box *B, int nd, const double *y, const double *u0, const double *u1, double *work, double *s, void *stream)
{
  ppe_dev_s7_dot_args a;

  if (nd <= 0) return 0;
  a.B  = *B;
  a.y  = y;
  a.u0 = u0;
  a.u1 = u1;
  a.w  = work;
  a.nr = B->ym * B->zm;
  PPE_DEV_LAUNCH(ppe_dev_s7_dot, (long)nd * a.nr, stream, a);
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevReduce)(a.nr, nd, work, stream));
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevCopy)(s, work + (size_t)nd * (size_t)a.nr, (size_t)nd * sizeof(double), PPE_DEV_D2H, stream));
  PPE_DEV_TRY(PPE_DEV_NAME(PPEDevSync)(stream));
  return 0;
}
