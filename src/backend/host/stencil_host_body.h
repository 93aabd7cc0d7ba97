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

/* The interior points of a row of the variable operator in flux form (ppe_s7_var_apply; face
   rows v, copied into restrict locals so that the stores to y cannot alias them; a y or z
   neighbour that does not exist is taken as 0), plain or with the Chebyshev step fused. */
PPE_HOST_TARGET static inline void PPE_HOST_FN(RowInteriorVar)(PetscInt ma, PetscInt mb, const PPEVarRow *v, const double *restrict c, const double *restrict s, const double *restrict n, const double *restrict b, const double *restrict t,
                                                               double *restrict y, const PPEStencilCI *ci, size_t off)
{
  const double *restrict fx = v->fx, *restrict fs = v->fs, *restrict fn = v->fn, *restrict fb = v->fb, *restrict ft = v->ft, *restrict xw = v->xw;
  const double wyz = v->wyz, sigma = v->sigma;
  const int    es = v->es, en = v->en, eb = v->eb, et = v->et;

#define PPE_VAR_POINT(ii) ppe_s7_var_apply(fx[ii], fx[ii + 1], fs[ii], fn[ii], fb[ii], ft[ii], sigma *(xw[ii] * wyz), c[ii], c[ii - 1], c[ii + 1], es ? s[ii] : 0.0, en ? n[ii] : 0.0, eb ? b[ii] : 0.0, et ? t[ii] : 0.0)
  if (ci) {
    const double rho = ci->rho, rold = ci->rho_old, s2 = ci->s2, d2 = ci->d2;
    const double *restrict rhs = ci->b + off, *restrict z = ci->z + off, *restrict dv = ci->dinv ? ci->dinv + off : NULL;
    double *restrict w = ci->w + off;

    if (dv) { /* two loops: a choice inside one keeps GCC from vectorising it */
      PPE_HOST_IVDEP
      for (PetscInt ii = ma; ii < mb; ii++) w[ii] = ppe_ci_point(rho, rold, s2, d2, dv[ii], rhs[ii], PPE_VAR_POINT(ii), c[ii], z[ii]);
    } else {
      PPE_HOST_IVDEP
      for (PetscInt ii = ma; ii < mb; ii++) w[ii] = ppe_ci_point(rho, rold, s2, d2, 1.0, rhs[ii], PPE_VAR_POINT(ii), c[ii], z[ii]);
    }
  } else if (sigma == 0 && es && en && eb && et) { /* a row inside the box without shift: no choices, no weights */
    PPE_HOST_IVDEP
    for (PetscInt ii = ma; ii < mb; ii++) y[ii] = PPE_S7_VAR_FLUX(fx[ii], fx[ii + 1], fs[ii], fn[ii], fb[ii], ft[ii], c[ii], c[ii - 1], c[ii + 1], s[ii], n[ii], b[ii], t[ii]);
  } else {
    PPE_HOST_IVDEP
    for (PetscInt ii = ma; ii < mb; ii++) y[ii] = PPE_VAR_POINT(ii);
  }
#undef PPE_VAR_POINT
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
  PetscInt xm = B->xm, ma = PetscMax(ia, 1), mb = PetscMin(ib, xm - 1);

  if (ia >= ib) return;
  if (B->K.x) {
    PPEVarRow v;

    VarRowSetUp(B, j - B->ys, k - B->zs, &v);
    if (ia == 0) PPE_HOST_FN(Put)(ci, off, 0, VarRowEnd(B, r, &v, 0), r->c[0], y);
    PPE_HOST_FN(RowInteriorVar)(ma, mb, &v, r->c, r->s, r->n, r->b, r->t, y, ci, off);
    if (ib == xm && xm > 1) PPE_HOST_FN(Put)(ci, off, xm - 1, VarRowEnd(B, r, &v, xm - 1), r->c[xm - 1], y);
  } else {
    const ppe_s7_coef crow = ppe_s7_point_coef(B->X, B->Y, B->Z, B->sigma, 1, j, k); /* any interior i */

    if (ia == 0) PPE_HOST_FN(Put)(ci, off, 0, RowEnd(B, r, &crow, 0, j, k), r->c[0], y);
    if (ci) PPE_HOST_FN(RowInteriorCI)(ma, mb, &crow, r->c, r->s, r->n, r->b, r->t, ci, off);
    else PPE_HOST_FN(RowInterior)(ma, mb, &crow, r->c, r->s, r->n, r->b, r->t, y);
    if (ib == xm && xm > 1) PPE_HOST_FN(Put)(ci, off, xm - 1, RowEnd(B, r, &crow, xm - 1, j, k), r->c[xm - 1], y);
  }
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

/* y[ii] = the variable operator without shift at 1 <= ii < m of a row whose neighbours all
   exist (a function of its own: its eleven streams stay in registers). */
PPE_HOST_TARGET PPE_HOST_NOINLINE static void PPE_HOST_FN(RowFlux)(PetscInt m, const double *restrict kx, const double *restrict ks, const double *restrict kn, const double *restrict kb, const double *restrict kt, const double *restrict c,
                                                                   const double *restrict cs, const double *restrict cn, const double *restrict cb, const double *restrict ct, double *restrict y)
{
  PPE_HOST_IVDEP
  for (PetscInt ii = 1; ii < m; ii++) y[ii] = PPE_S7_VAR_FLUX(kx[ii], kx[ii + 1], ks[ii], kn[ii], kb[ii], kt[ii], c[ii], c[ii - 1], c[ii + 1], cs[ii], cn[ii], cb[ii], ct[ii]);
}

/* Rows ja <= jj < jb of plane kk of the variable operator without shift whose y and z
   neighbours are all in the box (0 < jj < ym - 1, 0 < kk < zm - 1), core phase, plain or with
   the Chebyshev step fused (ci): the loops of RowInteriorVar and the two ends (those that need
   no halo value: lo, hi; a whole-periodic x takes its wrapped values from the row) with the
   bits of VarRowEnd, walking the arrays from row to row (the per-row set-up of Apply cost 15%
   at 128^3). The input is given as its planes kk - 1, kk and kk + 1 (xb, xc, xt), the output
   y and the arrays of ci from the start of plane kk (the temporally blocked sweep keeps its
   levels' planes apart). */
PPE_HOST_TARGET PPE_HOST_NOINLINE static void PPE_HOST_FN(PlaneVar)(const PPEStencilBox *B, const double *xb, const double *xc, const double *xt, double *y, const PPEStencilCI *ci, PetscInt kk, PetscInt ja, PetscInt jb, int lo, int hi)
{
  const PetscInt xm = B->xm, ym = B->ym;
  const size_t   pl  = (size_t)xm * ym;
  size_t         off = (size_t)ja * xm; /* the row in the plane */
  const double  *fx = B->K.x + ppe_s7_fx(xm, ym, 0, ja, kk), *fy = B->K.y + ppe_s7_fy(xm, ym, 0, ja, kk), *fz = B->K.z + ppe_s7_fz(xm, ym, 0, ja, kk);
  const int      xw = B->nb[PPE_XLO], xe = B->nb[PPE_XHI];

  for (PetscInt jj = ja; jj < jb; jj++, off += xm, fx += xm + 1, fy += xm, fz += xm) {
    const double *restrict c = xc + off, *restrict cs = c - xm, *restrict cn = c + xm, *restrict cb = xb + off, *restrict ct = xt + off;
    const double *restrict kx = fx, *restrict ks = fy, *restrict kn = fy + xm, *restrict kb = fz, *restrict kt = fz + pl;
    double *restrict yy = y ? y + off : NULL;

#define PPE_PLANE_POINT(ii) PPE_S7_VAR_FLUX(kx[ii], kx[ii + 1], ks[ii], kn[ii], kb[ii], kt[ii], c[ii], c[ii - 1], c[ii + 1], cs[ii], cn[ii], cb[ii], ct[ii])
    if (lo) PPE_HOST_FN(Put)(ci, off, 0, PPE_S7_VAR_FLUX(kx[0], kx[1], ks[0], kn[0], kb[0], kt[0], c[0], xw ? c[xm - 1] : 0.0, c[1], cs[0], cn[0], cb[0], ct[0]), c[0], yy);
    if (!ci) PPE_HOST_FN(RowFlux)(xm - 1, kx, ks, kn, kb, kt, c, cs, cn, cb, ct, yy);
    else {
      const double rho = ci->rho, rold = ci->rho_old, s2 = ci->s2, d2 = ci->d2;
      const double *restrict rhs = ci->b + off, *restrict z = ci->z + off, *restrict dv = ci->dinv ? ci->dinv + off : NULL;
      double *restrict w = ci->w + off;

      if (dv) {
        PPE_HOST_IVDEP
        for (PetscInt ii = 1; ii < xm - 1; ii++) w[ii] = ppe_ci_point(rho, rold, s2, d2, dv[ii], rhs[ii], PPE_PLANE_POINT(ii), c[ii], z[ii]);
      } else {
        PPE_HOST_IVDEP
        for (PetscInt ii = 1; ii < xm - 1; ii++) w[ii] = ppe_ci_point(rho, rold, s2, d2, 1.0, rhs[ii], PPE_PLANE_POINT(ii), c[ii], z[ii]);
      }
    }
    if (hi) PPE_HOST_FN(Put)(ci, off, xm - 1, PPE_S7_VAR_FLUX(kx[xm - 1], kx[xm], ks[xm - 1], kn[xm - 1], kb[xm - 1], kt[xm - 1], c[xm - 1], c[xm - 2], xe ? c[0] : 0.0, cs[xm - 1], cn[xm - 1], cb[xm - 1], ct[xm - 1]), c[xm - 1], yy);
#undef PPE_PLANE_POINT
  }
}

/*
   Levels S->j0..S->j1 of the Chebyshev iteration (PPEChebyCISolve()) on the rank-local block in
   one wavefront over the z planes: at step st, level j computes plane st - (j - j0), whose
   sources, level j - 1 at that plane and the planes on either side and level j - 2 at it, were
   computed at this step (by the level before) or at the two steps before, and are still in
   their rings of four planes. A level inside the sweep never goes to memory: per step the
   sweep reads b and D^-1 once (from cache for all levels but the first) and stores the last two
   levels, where one step at a time streams five arrays. Every row goes through Row() as the
   one-step sweep's rows do, KernelCI1 through the operator then ppe_ci_first() on the row, so
   the results have the bits of the steps taken one by one.
*/
PPE_HOST_TARGET static void PPE_HOST_FN(CISweep)(const PPEStencilBox *B, const ppe_dev_ci_sweep *S)
{
  const PetscInt xm = B->xm, ym = B->ym, zm = B->zm;
  const size_t   pl     = (size_t)xm * ym;
  const long     nlev   = S->j1 - S->j0 + 1;
  const int      own[2] = {B->per[0] && xm == B->N[0], B->per[1] && ym == B->N[1]};
  const int      lo = !(B->nb[PPE_XLO] && !own[0]), hi = !(B->nb[PPE_XHI] && !own[0]); /* x ends without a dropped neighbour */
  double        *z0 = S->work + (size_t)nlev * 4 * pl, *t = z0 + pl, *zero = t + xm;

  for (PetscInt i = 0; i < xm; i++) zero[i] = 0.0;
  for (long st = 0; st < zm + nlev - 1; st++) {
    for (long j = S->j0; j <= S->j1; j++) {
      const PetscInt kk = (PetscInt)(st - (j - S->j0));
      const size_t   po = (size_t)kk * pl; /* the plane's start in the box */
      const double  *c, *cb, *ct, *dv;
      double        *out;

      if (kk < 0 || kk >= zm) continue;
      c   = SweepIn(S, pl, j - 1, kk);
      cb  = kk > 0 ? SweepIn(S, pl, j - 1, kk - 1) : NULL;
      ct  = kk < zm - 1 ? SweepIn(S, pl, j - 1, kk + 1) : NULL;
      out = SweepOut(S, pl, j, kk);
      dv  = S->dinv ? S->dinv + po : NULL;
      if (j == 1) { /* KernelCI1 row by row: t = A b, then z0 (unused) and level 1 */
        for (PetscInt jj = 0; jj < ym; jj++) {
          const size_t off = (size_t)jj * xm;
          PPERow       r;

          SweepRowPointers(B, own, c, cb, ct, zero, jj, &r);
          PPE_HOST_FN(Row)(B, &r, B->ys + jj, B->zs + kk, 0, xm, t, NULL, 0);
          ppe_ci_first((long)xm, S->theta, S->c1, dv ? dv + off : NULL, S->b + po + off, t, z0 + off, out + off);
        }
      } else {
        const double *zp = j >= 3 ? SweepIn(S, pl, j - 2, kk) : z0;
        PPEStencilCI  cp = {S->rho[j], S->rho_old[j], S->s2, S->d2, S->b + po, zp, dv, out}; /* arrays from the plane's start */
        const int     pv = B->K.x && B->sigma == 0 && xm > 1 && ym > 2 && cb && ct;          /* Apply's plane walk */

        if (j == 2) /* level 0, z = b/theta, as ppe_ci_first() forms it */
          for (size_t p = 0; p < pl; p++) z0[p] = S->b[po + p] / S->theta;
        if (pv) PPE_HOST_FN(PlaneVar)(B, cb, c, ct, NULL, &cp, kk, 1, ym - 1, lo, hi);
        for (PetscInt jj = 0; jj < ym; jj++) {
          const size_t off = (size_t)jj * xm;
          PPERow       r;

          SweepRowPointers(B, own, c, cb, ct, zero, jj, &r);
          if (pv && jj > 0 && jj < ym - 1) { /* the ends PlaneVar left: a dropped x neighbour */
            if (!lo) PPE_HOST_FN(Row)(B, &r, B->ys + jj, B->zs + kk, 0, 1, NULL, &cp, off);
            if (!hi) PPE_HOST_FN(Row)(B, &r, B->ys + jj, B->zs + kk, xm - 1, xm, NULL, &cp, off);
          } else PPE_HOST_FN(Row)(B, &r, B->ys + jj, B->zs + kk, 0, xm, NULL, &cp, off);
        }
      }
    }
  }
}

/*
   Apply one phase on the box. CORE: every point whose neighbours are owned or absent.
   SURFACE: the points that need a halo value (rows on a j/k face with a neighbour across
   it, and the row ends next to an x neighbour). The two phases partition the box and
   compute every point with the same arithmetic, whatever their order. A periodic direction
   that the rank holds whole is its own neighbour: its wrapped values are read from x, so its
   faces belong to the core (1 rank, periodic x and y, 128^3: a second pass over the row ends
   cost 0.6 ns per point). With dot != NULL, the local dot products of the output with
   dot->u[] are computed row by row into dot->rows[] (each point is in exactly one segment),
   in the order of ppe_s7_row_dot that the device back ends share, whose segments follow the
   halo faces: such an apply keeps every face with a neighbour in the surface phase. With
   ci != NULL the output is the fused Chebyshev step ci->w, and y is not used.
*/
PPE_HOST_TARGET static void PPE_HOST_FN(Apply)(const PPEStencilBox *B, const double *x, const PPEStencilHalo *H, double *y, PPEStencilPhase phase, PPEStencilDot *dot, const PPEStencilCI *ci)
{
  PetscInt  xm = B->xm, ye = B->ys + B->ym, ze = B->zs + B->zm;
  const int own[3] = {!dot && B->per[0] && B->xm == B->N[0], !dot && B->per[1] && B->ym == B->N[1], !dot && B->per[2] && B->zm == B->N[2]};
  PetscBool hf[6]; /* a face whose neighbour values come from the halo */
  PetscBool wl, wh;

  for (int f = 0; f < 6; f++) hf[f] = (PetscBool)(B->nb[f] && !own[f / 2]);
  wl = hf[PPE_XLO];
  wh = hf[PPE_XHI];
  for (PetscInt k = B->zs; k < ze; k++) {
    /* the rows inside a plane inside the box, in one walk (the same bits as the rows below) */
    PetscBool plane = (PetscBool)(phase == PPE_STENCIL_CORE && B->K.x && !dot && B->sigma == 0 && xm > 1 && B->ym > 2 && k > B->zs && k < ze - 1);

    if (plane) {
      const size_t po = (size_t)(k - B->zs) * xm * B->ym; /* the plane's start */
      PPEStencilCI cp;

      if (ci) { /* its arrays from the plane's start */
        cp = *ci;
        cp.b += po;
        cp.z += po;
        if (cp.dinv) cp.dinv += po;
        cp.w += po;
      }
      PPE_HOST_FN(PlaneVar)(B, x + po - (size_t)xm * B->ym, x + po, x + po + (size_t)xm * B->ym, y ? y + po : NULL, ci ? &cp : NULL, k - B->zs, 1, B->ym - 1, !wl, !wh);
    }
    for (PetscInt j = B->ys; j < ye; j++) {
      PetscBool surface = (PetscBool)((j == B->ys && hf[PPE_YLO]) || (j == ye - 1 && hf[PPE_YHI]) || (k == B->zs && hf[PPE_ZLO]) || (k == ze - 1 && hf[PPE_ZHI]));
      size_t    ri      = (size_t)(k - B->zs) * B->ym + (j - B->ys);
      size_t    off     = ri * xm;
      double   *yr      = y ? y + off : NULL;
      PPERow    r;

      if (phase == PPE_STENCIL_CORE ? surface : !surface && !wl && !wh) continue; /* nothing of this row in this phase */
      if (plane && j > B->ys && j < ye - 1) continue;                             /* done by PlaneVar */
      RowPointers(B, x, H, own, j, k, &r);
      if (phase == PPE_STENCIL_CORE) {
        PPE_HOST_FN(Row)(B, &r, j, k, wl ? 1 : 0, wh ? xm - 1 : xm, yr, ci, off);
        PPE_HOST_FN(RowDot)(dot, ri, off, wl ? 1 : 0, wh ? xm - 1 : xm, yr, PETSC_FALSE);
      } else if (surface) {
        PPE_HOST_FN(Row)(B, &r, j, k, 0, xm, yr, ci, off);
        PPE_HOST_FN(RowDot)(dot, ri, off, 0, xm, yr, PETSC_FALSE);
      } else {
        if (wl) {
          PPE_HOST_FN(Put)(ci, off, 0, AnyRowEnd(B, &r, 0, j, k), r.c[0], yr);
          PPE_HOST_FN(RowDot)(dot, ri, off, 0, 1, yr, PETSC_TRUE);
        }
        if (wh && (xm > 1 || !wl)) {
          PPE_HOST_FN(Put)(ci, off, xm - 1, AnyRowEnd(B, &r, xm - 1, j, k), r.c[xm - 1], yr);
          PPE_HOST_FN(RowDot)(dot, ri, off, xm - 1, xm, yr, PETSC_TRUE);
        }
      }
    }
  }
}
