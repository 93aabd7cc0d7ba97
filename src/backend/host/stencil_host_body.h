/*
   Row loops of the host stencil back end: the template that stencil_host.c compiles once per
   instruction set (simd.h: PPE_HOST_FN names the instance's functions, PPE_HOST_TARGET is
   its target attribute, for which the compiler vectorises the interior loop).
*/

/* The streaming part of a row: interior points with the row's shared coefficients. The
   arrays never overlap y (different vectors), which restrict tells the vectoriser. */
PPE_HOST_TARGET static inline void PPE_HOST_FN(RowInterior)(PetscInt ma, PetscInt mb, const ppe_s7_coef *restrict crow, const double *restrict c, const double *restrict s, const double *restrict n, const double *restrict b, const double *restrict t,
                                                            double *restrict y)
{
  const ppe_s7_coef k = *crow;

  PPE_HOST_IVDEP
  for (PetscInt ii = ma; ii < mb; ii++) y[ii] = ppe_s7_apply(&k, c[ii], c[ii - 1], c[ii + 1], s[ii], n[ii], b[ii], t[ii]);
}

/* The same with the Chebyshev step fused (KernelCI2): w = ppe_ci_point(.., (A x)_p, x_p, ..)
   is written instead of (A x)_p, which is never stored. off: the row's offset in the box. */
PPE_HOST_TARGET static inline void PPE_HOST_FN(RowInteriorCI)(PetscInt ma, PetscInt                         mb, const ppe_s7_coef *restrict crow, const double *restrict c, const double *restrict s, const double *restrict n, const double *restrict b,
                                                              const double *restrict t, const PPEStencilCI *ci, size_t off)
{
  const ppe_s7_coef k   = *crow;
  const double      rho = ci->rho, rold = ci->rho_old, s2 = ci->s2, d2 = ci->d2;
  const double *restrict rhs = ci->b + off, *restrict z = ci->z + off, *restrict dv = ci->dinv ? ci->dinv + off : NULL;
  double *restrict w = ci->w + off;

  if (dv) {
    PPE_HOST_IVDEP
    for (PetscInt ii = ma; ii < mb; ii++) w[ii] = ppe_ci_point(rho, rold, s2, d2, dv[ii], rhs[ii], ppe_s7_apply(&k, c[ii], c[ii - 1], c[ii + 1], s[ii], n[ii], b[ii], t[ii]), c[ii], z[ii]);
  } else {
    PPE_HOST_IVDEP
    for (PetscInt ii = ma; ii < mb; ii++) w[ii] = ppe_ci_point(rho, rold, s2, d2, 1.0, rhs[ii], ppe_s7_apply(&k, c[ii], c[ii - 1], c[ii + 1], s[ii], n[ii], b[ii], t[ii]), c[ii], z[ii]);
  }
}

/* The interior points of a row of the variable operator (coefficients from its face rows v,
   copied into restrict locals so that the stores to y cannot alias them), plain or with the
   Chebyshev step fused. */
PPE_HOST_TARGET static inline void PPE_HOST_FN(RowInteriorVar)(PetscInt ma, PetscInt mb, const PPEVarRow *v, const double *restrict c, const double *restrict s, const double *restrict n, const double *restrict b, const double *restrict t,
                                                               double *restrict y, const PPEStencilCI *ci, size_t off)
{
  const double *restrict fx = v->fx, *restrict fs = v->fs, *restrict fn = v->fn, *restrict fb = v->fb, *restrict ft = v->ft, *restrict xw = v->xw;
  const double wyz = v->wyz, sigma = v->sigma;
  const int    es = v->es, en = v->en, eb = v->eb, et = v->et;

#define PPE_VAR_COEF(ii) ppe_s7_face_coef(fx[ii], fx[ii + 1], fs[ii], fn[ii], fb[ii], ft[ii], sigma *(xw[ii] * wyz), 1, 1, es, en, eb, et)
  if (ci) {
    const double rho = ci->rho, rold = ci->rho_old, s2 = ci->s2, d2 = ci->d2;
    const double *restrict rhs = ci->b + off, *restrict z = ci->z + off, *restrict dv = ci->dinv ? ci->dinv + off : NULL;
    double *restrict w = ci->w + off;

    if (dv) { /* two loops: a choice inside one keeps GCC from vectorising it */
      PPE_HOST_IVDEP
      for (PetscInt ii = ma; ii < mb; ii++) {
        const ppe_s7_coef k = PPE_VAR_COEF(ii);
        w[ii]               = ppe_ci_point(rho, rold, s2, d2, dv[ii], rhs[ii], ppe_s7_apply(&k, c[ii], c[ii - 1], c[ii + 1], s[ii], n[ii], b[ii], t[ii]), c[ii], z[ii]);
      }
    } else {
      PPE_HOST_IVDEP
      for (PetscInt ii = ma; ii < mb; ii++) {
        const ppe_s7_coef k = PPE_VAR_COEF(ii);
        w[ii]               = ppe_ci_point(rho, rold, s2, d2, 1.0, rhs[ii], ppe_s7_apply(&k, c[ii], c[ii - 1], c[ii + 1], s[ii], n[ii], b[ii], t[ii]), c[ii], z[ii]);
      }
    }
  } else if (sigma == 0 && es && en && eb && et) { /* a row inside the box without shift: no choices, no weights (the same sums: + 0 is exact) */
    PPE_HOST_IVDEP
    for (PetscInt ii = ma; ii < mb; ii++) {
      const ppe_s7_coef k = ppe_s7_face_coef(fx[ii], fx[ii + 1], fs[ii], fn[ii], fb[ii], ft[ii], 0.0, 1, 1, 1, 1, 1, 1);
      y[ii]               = ppe_s7_apply(&k, c[ii], c[ii - 1], c[ii + 1], s[ii], n[ii], b[ii], t[ii]);
    }
  } else {
    PPE_HOST_IVDEP
    for (PetscInt ii = ma; ii < mb; ii++) {
      const ppe_s7_coef k = PPE_VAR_COEF(ii);
      y[ii]               = ppe_s7_apply(&k, c[ii], c[ii - 1], c[ii + 1], s[ii], n[ii], b[ii], t[ii]);
    }
  }
#undef PPE_VAR_COEF
}

/* Store the value v of point ii of a row: y[ii] = v, or the fused Chebyshev step (xc = x_p). */
PPE_HOST_TARGET static inline void PPE_HOST_FN(Put)(const PPEStencilCI *ci, size_t off, PetscInt ii, double v, double xc, double *y)
{
  size_t p = off + (size_t)ii;

  if (ci) ci->w[p] = ppe_ci_point(ci->rho, ci->rho_old, ci->s2, ci->d2, ci->dinv ? ci->dinv[p] : 1.0, ci->b[p], v, xc, ci->z[p]);
  else y[ii] = v;
}

/* Points ia <= ii < ib of a row (y is the row of the output; unused with ci). */
PPE_HOST_TARGET static inline void PPE_HOST_FN(Row)(const PPEStencilBox *B, const PPERow *r, PetscInt j, PetscInt k, PetscInt ia, PetscInt ib, double *restrict y, const PPEStencilCI *ci, size_t off)
{
  PetscInt          xm = B->xm, ma = PetscMax(ia, 1), mb = PetscMin(ib, xm - 1);
  const ppe_s7_coef crow = ppe_s7_point_coef(B->X, B->Y, B->Z, B->sigma, 1, j, k); /* any interior i */

  if (ia >= ib) return;
  if (ia == 0) PPE_HOST_FN(Put)(ci, off, 0, RowEnd(B, r, &crow, 0, j, k), r->c[0], y);
  if (B->K.x) {
    PPEVarRow v;

    VarRowSetUp(B, j - B->ys, k - B->zs, &v);
    PPE_HOST_FN(RowInteriorVar)(ma, mb, &v, r->c, r->s, r->n, r->b, r->t, y, ci, off);
  } else if (ci) PPE_HOST_FN(RowInteriorCI)(ma, mb, &crow, r->c, r->s, r->n, r->b, r->t, ci, off);
  else PPE_HOST_FN(RowInterior)(ma, mb, &crow, r->c, r->s, r->n, r->b, r->t, y);
  if (ib == xm && xm > 1) PPE_HOST_FN(Put)(ci, off, xm - 1, RowEnd(B, r, &crow, xm - 1, j, k), r->c[xm - 1], y);
}

/* Fused dot products, while the row segment just computed is still in cache: the partial of
   row ri is y[ia..ib) . u_q[off+ia..off+ib) (0 when empty), and each x end computed later is
   added to it (add), in the order of ppe_s7_row_dot. */
PPE_HOST_TARGET static inline void PPE_HOST_FN(RowDot)(PPEStencilDot *dot, size_t ri, size_t off, PetscInt ia, PetscInt ib, const double *yr, PetscBool add)
{
  if (!dot) return;
  for (PetscInt q = 0; q < dot->n; q++) {
    double s = ib > ia ? ppe_dot_seg((long)(ib - ia), yr + ia, dot->u[q] + off + ia) : 0.0;

    if (add) dot->rows[q][ri] += s;
    else dot->rows[q][ri] = s;
  }
}

/*
   Apply one phase on the box. CORE: every point whose neighbours are owned or absent.
   SURFACE: the points that need a halo value (rows on a j/k face with a neighbour across
   it, and the row ends next to an x neighbour). The two phases partition the box and
   compute every point with the same arithmetic, whatever their order. With dot != NULL,
   the local dot products of the output with dot->u[] are computed row by row into
   dot->rows[] (each point is in exactly one segment). With ci != NULL the output is the fused Chebyshev
   step ci->w, and y is not used.
*/
PPE_HOST_TARGET static void PPE_HOST_FN(Apply)(const PPEStencilBox *B, const double *x, const PPEStencilHalo *H, double *y, PPEStencilPhase phase, PPEStencilDot *dot, const PPEStencilCI *ci)
{
  PetscInt  xm = B->xm, ye = B->ys + B->ym, ze = B->zs + B->zm;
  PetscBool wl = B->nb[PPE_XLO], wh = B->nb[PPE_XHI];

  for (PetscInt k = B->zs; k < ze; k++) {
    for (PetscInt j = B->ys; j < ye; j++) {
      PetscBool surface = (PetscBool)((j == B->ys && B->nb[PPE_YLO]) || (j == ye - 1 && B->nb[PPE_YHI]) || (k == B->zs && B->nb[PPE_ZLO]) || (k == ze - 1 && B->nb[PPE_ZHI]));
      size_t    ri      = (size_t)(k - B->zs) * B->ym + (j - B->ys);
      size_t    off     = ri * xm;
      double   *yr      = y ? y + off : NULL;
      PPERow    r;

      if (phase == PPE_STENCIL_CORE && surface) continue;
      RowPointers(B, x, H, j, k, &r);
      if (phase == PPE_STENCIL_CORE) {
        PPE_HOST_FN(Row)(B, &r, j, k, wl ? 1 : 0, wh ? xm - 1 : xm, yr, ci, off);
        PPE_HOST_FN(RowDot)(dot, ri, off, wl ? 1 : 0, wh ? xm - 1 : xm, yr, PETSC_FALSE);
      } else if (surface) {
        PPE_HOST_FN(Row)(B, &r, j, k, 0, xm, yr, ci, off);
        PPE_HOST_FN(RowDot)(dot, ri, off, 0, xm, yr, PETSC_FALSE);
      } else {
        const ppe_s7_coef crow = ppe_s7_point_coef(B->X, B->Y, B->Z, B->sigma, 1, j, k);
        if (wl) {
          PPE_HOST_FN(Put)(ci, off, 0, RowEnd(B, &r, &crow, 0, j, k), r.c[0], yr);
          PPE_HOST_FN(RowDot)(dot, ri, off, 0, 1, yr, PETSC_TRUE);
        }
        if (wh && (xm > 1 || !wl)) {
          PPE_HOST_FN(Put)(ci, off, xm - 1, RowEnd(B, &r, &crow, xm - 1, j, k), r.c[xm - 1], yr);
          PPE_HOST_FN(RowDot)(dot, ri, off, xm - 1, xm, yr, PETSC_TRUE);
        }
      }
    }
  }
}
