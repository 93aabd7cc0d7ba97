/*
   Host back end of the matrix-free 7-point operator: row loops over the rank's
   box calling the single-source point body of src/kernels/stencil7.h.

   A row is a line of constant (j,k). Its interior points share one set of
   coefficients (x and y are uniform), so the inner loop is a unit-stride
   streaming loop that the compiler vectorises; the two end points go through
   the general per-point coefficients (physical boundaries, halo values).
   On x86-64 the loops are also compiled for AVX2 and chosen at set-up when the CPU has
   it (measured: 1.1 vs 1.5-2.0 ns per point at 128^3). Streaming stores, which would
   save the read-for-ownership of y, were measured slower on our machines and are not used.
*/
#include <ppekit/private/stencilimpl.h>
#include "simd.h"
#include "host.h"

/* Pointers to the rows around (j,k): from the owned array, the halo, or the centre row
   itself where the neighbour does not exist (zero coefficient). own[d]: direction d is
   periodic and whole on this rank, so that its wrapped neighbours are read from x itself
   (the values the halo holds, available before the exchange ends). */
typedef struct {
  const double *c, *s, *n, *b, *t;
  double        w, e; /* west/east neighbour values for the row ends */
} PPERow;

PPE_HOST_INLINE void RowPointers(const PPEStencilBox *B, const double *x, const PPEStencilHalo *H, const int own[3], PetscInt j, PetscInt k, PPERow *r)
{
  PetscInt xm = B->xm, ym = B->ym, zm = B->zm, jj = j - B->ys, kk = k - B->zs;
  size_t   pl = (size_t)xm * ym, row = ((size_t)kk * ym + jj) * xm;

  r->c = x + row;
  r->s = jj > 0 ? r->c - xm : (B->nb[PPE_YLO] ? (own[1] ? r->c + (size_t)(ym - 1) * xm : H->f[PPE_YLO] + (size_t)kk * xm) : r->c);
  r->n = jj < ym - 1 ? r->c + xm : (B->nb[PPE_YHI] ? (own[1] ? r->c - (size_t)(ym - 1) * xm : H->f[PPE_YHI] + (size_t)kk * xm) : r->c);
  r->b = kk > 0 ? r->c - pl : (B->nb[PPE_ZLO] ? (own[2] ? r->c + (size_t)(zm - 1) * pl : H->f[PPE_ZLO] + (size_t)jj * xm) : r->c);
  r->t = kk < zm - 1 ? r->c + pl : (B->nb[PPE_ZHI] ? (own[2] ? r->c - (size_t)(zm - 1) * pl : H->f[PPE_ZHI] + (size_t)jj * xm) : r->c);
  r->w = B->nb[PPE_XLO] ? (own[0] ? r->c[xm - 1] : H->f[PPE_XLO][(size_t)kk * ym + jj]) : 0.0;
  r->e = B->nb[PPE_XHI] ? (own[0] ? r->c[0] : H->f[PPE_XHI][(size_t)kk * ym + jj]) : 0.0;
}

/* The variable operator on a row (jj, kk) of the box: its face rows, the weights along x, the
   product of the other two weights and which y and z neighbours exist. */
typedef struct {
  const double *fx, *fs, *fn, *fb, *ft, *xw;
  double        wyz, sigma;
  int           es, en, eb, et;
} PPEVarRow;

PPE_HOST_INLINE void VarRowSetUp(const PPEStencilBox *B, PetscInt jj, PetscInt kk, PPEVarRow *v)
{
  PetscInt xm = B->xm, ym = B->ym;

  v->fx    = B->K.x + ppe_s7_fx(xm, ym, 0, jj, kk);
  v->fs    = B->K.y + ppe_s7_fy(xm, ym, 0, jj, kk);
  v->fn    = v->fs + xm;
  v->fb    = B->K.z + ppe_s7_fz(xm, ym, 0, jj, kk);
  v->ft    = v->fb + (size_t)xm * ym;
  v->xw    = B->X.w + B->xs;
  v->wyz   = B->Y.w[B->ys + jj] * B->Z.w[B->zs + kk];
  v->sigma = B->sigma;
  v->es    = jj > 0 || B->nb[PPE_YLO];
  v->en    = jj < ym - 1 || B->nb[PPE_YHI];
  v->eb    = kk > 0 || B->nb[PPE_ZLO];
  v->et    = kk < B->zm - 1 || B->nb[PPE_ZHI];
}

/* One end point ii of a row (0 or xm-1) of the constant operator, with its own coefficients
   at a physical x end. */
PPE_HOST_INLINE double RowEnd(const PPEStencilBox *B, const PPERow *r, const ppe_s7_coef *crow, PetscInt ii, PetscInt j, PetscInt k)
{
  PetscInt    i = B->xs + ii, xm = B->xm;
  ppe_s7_coef c = *crow;
  double      uw, ue;

  if (!B->per[0] && (i == 0 || i == B->N[0] - 1)) c = ppe_s7_point_coef(B->X, B->Y, B->Z, B->sigma, i, j, k);
  uw = ii > 0 ? r->c[ii - 1] : (B->nb[PPE_XLO] ? r->w : r->c[ii]);
  ue = ii < xm - 1 ? r->c[ii + 1] : (B->nb[PPE_XHI] ? r->e : r->c[ii]);
  return ppe_s7_apply(&c, r->c[ii], uw, ue, r->s[ii], r->n[ii], r->b[ii], r->t[ii]);
}

/* One end point ii of a row of the variable operator from the row's faces v (the bits of
   ppe_s7_box_var_apply: a neighbour that does not exist is 0). */
PPE_HOST_INLINE double VarRowEnd(const PPEStencilBox *B, const PPERow *r, const PPEVarRow *v, PetscInt ii)
{
  PetscInt xm = B->xm;
  double   uw = ii > 0 ? r->c[ii - 1] : (B->nb[PPE_XLO] ? r->w : 0.0);
  double   ue = ii < xm - 1 ? r->c[ii + 1] : (B->nb[PPE_XHI] ? r->e : 0.0);

  return ppe_s7_var_apply(v->fx[ii], v->fx[ii + 1], v->fs[ii], v->fn[ii], v->fb[ii], v->ft[ii], v->sigma * (v->xw[ii] * v->wyz), r->c[ii], uw, ue, v->es ? r->s[ii] : 0.0, v->en ? r->n[ii] : 0.0, v->eb ? r->b[ii] : 0.0, v->et ? r->t[ii] : 0.0);
}

/* End point ii of row (j, k) of either operator. */
PPE_HOST_INLINE double AnyRowEnd(const PPEStencilBox *B, const PPERow *r, PetscInt ii, PetscInt j, PetscInt k)
{
  if (B->K.x) {
    PPEVarRow v;

    VarRowSetUp(B, j - B->ys, k - B->zs, &v);
    return VarRowEnd(B, r, &v, ii);
  } else {
    const ppe_s7_coef crow = ppe_s7_point_coef(B->X, B->Y, B->Z, B->sigma, 1, j, k); /* any interior i */

    return RowEnd(B, r, &crow, ii, j, k);
  }
}

/* Plane kk of level L of a temporally blocked sweep S (ppe_dev_ci_sweep): an input (b, the
   operator's input of KernelCI1, at level 0 when j0 = 1; y; z), an output (yout, zout) or the
   ring of a level inside the sweep, four planes, kk's slot kk mod 4. */
PPE_HOST_INLINE double *SweepOut(const ppe_dev_ci_sweep *S, size_t pl, long L, PetscInt kk)
{
  if (L == S->j1) return S->yout + (size_t)kk * pl;
  if (L == S->j1 - 1 && S->zout) return S->zout + (size_t)kk * pl;
  return S->work + ((size_t)(L - S->j0) * 4 + (size_t)(kk % 4)) * pl;
}

PPE_HOST_INLINE const double *SweepIn(const ppe_dev_ci_sweep *S, size_t pl, long L, PetscInt kk)
{
  if (L == S->j0 - 1) return (S->j0 == 1 ? S->b : S->y) + (size_t)kk * pl;
  if (L == S->j0 - 2) return S->z + (size_t)kk * pl;
  return SweepOut(S, pl, L, kk);
}

/* Pointers to the rows around row jj of the planes c (the row's), cb and ct (the planes below
   and above; NULL outside the box) of a sweep's level, on the rank-local block: a periodic
   direction held whole (own) wraps inside the plane, a neighbour across a face with another
   rank is the zero row, a missing neighbour the row itself (zero coefficient), as
   RowPointers() with the local block's face buffers (zeros, wrap copies). */
PPE_HOST_INLINE void SweepRowPointers(const PPEStencilBox *B, const int own[2], const double *c, const double *cb, const double *ct, const double *zero, PetscInt jj, PPERow *r)
{
  PetscInt xm = B->xm, ym = B->ym;

  r->c = c + (size_t)jj * xm;
  r->s = jj > 0 ? r->c - xm : (B->nb[PPE_YLO] ? (own[1] ? r->c + (size_t)(ym - 1) * xm : zero) : r->c);
  r->n = jj < ym - 1 ? r->c + xm : (B->nb[PPE_YHI] ? (own[1] ? r->c - (size_t)(ym - 1) * xm : zero) : r->c);
  r->b = cb ? cb + (size_t)jj * xm : (B->nb[PPE_ZLO] ? zero : r->c);
  r->t = ct ? ct + (size_t)jj * xm : (B->nb[PPE_ZHI] ? zero : r->c);
  r->w = B->nb[PPE_XLO] && own[0] ? r->c[xm - 1] : 0.0;
  r->e = B->nb[PPE_XHI] && own[0] ? r->c[0] : 0.0;
}

/* The row loops (stencil_host_body.h), generic and AVX2. */
#define PPE_HOST_BODY "stencil_host_body.h"
#include "simd_instances.h"

/* One phase of y = A x on the box (the AVX2 loops where B->avx2). */
void PPEStencilApply_Host(const PPEStencilBox *B, const double *x, const PPEStencilHalo *H, double *y, PPEStencilPhase phase)
{
  PPE_HOST_DISPATCH(B->avx2, Apply, (B, x, H, y, phase, NULL, NULL));
}

/* The same phase with the local dot products of y accumulated into dot->s[] (fused). */
void PPEStencilApplyDot_Host(const PPEStencilBox *B, const double *x, const PPEStencilHalo *H, double *y, PPEStencilPhase phase, PPEStencilDot *dot)
{
  PPE_HOST_DISPATCH(B->avx2, Apply, (B, x, H, y, phase, dot, NULL));
}

/* The same phase with the Chebyshev step fused: ci->w instead of y = A x (KernelCI2). */
void PPEStencilApplyCI_Host(const PPEStencilBox *B, const double *x, const PPEStencilHalo *H, PPEStencilPhase phase, const PPEStencilCI *ci)
{
  PPE_HOST_DISPATCH(B->avx2, Apply, (B, x, H, NULL, phase, NULL, ci));
}

/* The box of the back-end table as the row loops take it (the instance: the CPU's). */
static void HostBox(const ppe_dev_box *D, PPEStencilBox *B)
{
  B->X     = D->X;
  B->Y     = D->Y;
  B->Z     = D->Z;
  B->sigma = D->sigma;
  B->xs    = D->xs;
  B->ys    = D->ys;
  B->zs    = D->zs;
  B->xm    = D->xm;
  B->ym    = D->ym;
  B->zm    = D->zm;
  for (int d = 0; d < 3; d++) {
    B->N[d]   = D->N[d];
    B->per[d] = D->per[d] ? PETSC_TRUE : PETSC_FALSE;
  }
  for (int f = 0; f < 6; f++) B->nb[f] = D->nb[f] ? PETSC_TRUE : PETSC_FALSE;
  B->avx2 = PPEHostHasAVX2();
  B->K    = D->K;
}

/* Whether phase p (PPE_STENCIL_CORE or _SURFACE) is one of the table's phase (CORE, SURFACE or ALL). */
static int HostPhase(int phase, int p)
{
  return !((phase == PPE_DEV_CORE && p != PPE_STENCIL_CORE) || (phase == PPE_DEV_SURFACE && p != PPE_STENCIL_SURFACE));
}

/* The operator with the signature of the back-end table: one phase (or both, ALL) of y = A x,
   or with ci the fused Chebyshev step into ci->w. */
int PPEHostStencil(const ppe_dev_box *D, const double *x, const ppe_dev_halo *H, double *y, int phase, const ppe_dev_ci *ci, void *stream)
{
  PPEStencilBox  B;
  PPEStencilHalo F;
  PPEStencilCI   c;

  (void)stream;
  HostBox(D, &B);
  for (int f = 0; f < 6; f++) F.f[f] = H->f[f];
  if (ci) c = (PPEStencilCI){ci->rho, ci->rho_old, ci->s2, ci->d2, ci->b, ci->z, ci->dinv, ci->w};
  for (int p = PPE_STENCIL_CORE; p <= PPE_STENCIL_SURFACE; p++) {
    if (!HostPhase(phase, p)) continue;
    if (ci) PPEStencilApplyCI_Host(&B, x, &F, (PPEStencilPhase)p, &c);
    else PPEStencilApply_Host(&B, x, &F, y, (PPEStencilPhase)p);
  }
  return 0;
}

/* Levels S->j0..S->j1 of the Chebyshev iteration on the rank-local block in one wavefront
   (ppe_dev_ci_sweep); 2 when the call is outside what the sweep supports (z periodic and whole
   on the rank: plane 0 would need the last plane of the level before). */
int PPEHostStencilCISweep(const ppe_dev_box *D, const ppe_dev_ci_sweep *S, void *stream)
{
  PPEStencilBox B;

  (void)stream;
  if ((D->per[2] && D->zm == D->N[2]) || S->j0 < 1 || S->j0 == 2 || S->j1 < S->j0 || (S->zout && S->j1 == S->j0)) return 2;
  HostBox(D, &B);
  PPE_HOST_DISPATCH(B.avx2, CISweep, (&B, S));
  return 0;
}

/* s[q] = y . u_q over the box, q < nd: the row partials of the host's fused sweep
   (ppe_s7_row_dot: the x ends of a core row next to an x neighbour added last) into work, then
   their sum in row order, as the device back ends sum them. work: PPE_DEV_ROW_RED_WORK. */
int PPEHostStencilDot(const ppe_dev_box *B, int nd, const double *y, const double *u0, const double *u1, double *work, double *s, void *stream)
{
  long nr = B->ym * B->zm;

  (void)stream;
  for (int q = 0; q < nd; q++) {
    const double *u = q ? u1 : u0;

    for (long row = 0; row < nr; row++) {
      long jj = row % B->ym, kk = row / B->ym;
      int  surface = (jj == 0 && B->nb[PPE_YLO]) || (jj == B->ym - 1 && B->nb[PPE_YHI]) || (kk == 0 && B->nb[PPE_ZLO]) || (kk == B->zm - 1 && B->nb[PPE_ZHI]);

      work[q * nr + row] = ppe_s7_row_dot(B->xm, !surface && B->nb[PPE_XLO], !surface && B->nb[PPE_XHI], y + row * B->xm, u + row * B->xm);
    }
    s[q] = ppe_red_array(nr, work + q * nr);
  }
  return 0;
}

/* One phase (or both, ALL) of y = A x with the dot products y . u_q, q < nd, fused into the
   sweep: the row partials into rows (nd blocks of ym zm, ppe_s7_row_dot's order: the x ends of
   a core row next to an x neighbour added by the surface phase), summed into s in row order
   (ppe_red_array, the order of the device back ends' stencil_dot) by the surface phase. */
int PPEHostStencilRowDot(const ppe_dev_box *D, const double *x, const ppe_dev_halo *H, double *y, int phase, int nd, const double *u0, const double *u1, double *rows, double *s, void *stream)
{
  PPEStencilBox  B;
  PPEStencilHalo F;
  PPEStencilDot  dot;
  long           nr = D->ym * D->zm;

  (void)stream;
  HostBox(D, &B);
  for (int f = 0; f < 6; f++) F.f[f] = H->f[f];
  dot.n       = nd;
  dot.u[0]    = u0;
  dot.u[1]    = u1;
  dot.rows[0] = rows;
  dot.rows[1] = rows + nr;
  for (int p = PPE_STENCIL_CORE; p <= PPE_STENCIL_SURFACE; p++)
    if (HostPhase(phase, p)) PPEStencilApplyDot_Host(&B, x, &F, y, (PPEStencilPhase)p, &dot);
  if (phase != PPE_DEV_CORE)
    for (int q = 0; q < nd; q++) s[q] = ppe_red_array(nr, dot.rows[q]);
  return 0;
}
