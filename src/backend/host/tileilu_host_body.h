/*
   Group loops of the zyx tile sweeps: the template that tileilu_host.c compiles once per
   instruction set (simd.h: PPE_HOST_FN names the instance's functions, PPE_HOST_TARGET is
   its target attribute).
*/

/*
   Forward then backward sweep of one group of L tiles of shape tx x ty x tz, in place on
   its values v[q][l], with its factors F[q][kind][l] (nc kinds; sym: symmetric storage).
   The lane loop of a position is independent across lanes (different tiles), which ivdep
   tells the vectoriser; neighbours outside the tile read zeros.
*/
PPE_HOST_TARGET PPE_HOST_INLINE void PPE_HOST_FN(Group)(const PetscInt L, const int sym, PetscInt tx, PetscInt ty, PetscInt tz, const double *restrict F, double *restrict v)
{
  static const double zero[PPE_TILEILU_SZ] = {0.0};
  const PetscInt      txy = tx * ty, nc = sym ? PPE_TILEILU_NCOEF_SYM : PPE_TILEILU_NCOEF, kd = sym ? PPE_TILEILU_DINV_SYM : PPE_TILEILU_DINV;
  PetscInt            q = 0;

  for (PetscInt c = 0; c < tz; c++)
    for (PetscInt b = 0; b < ty; b++)
      for (PetscInt a = 0; a < tx; a++, q++) {
        const double *yb = c ? v + (size_t)(q - txy) * L : zero, *ys = b ? v + (size_t)(q - tx) * L : zero, *yw = a ? v + (size_t)(q - 1) * L : zero;
        const double *f  = F + (size_t)q * nc * L;
        double       *vq = v + (size_t)q * L;

        PPE_HOST_IVDEP
        for (PetscInt l = 0; l < L; l++) vq[l] = ppe_tileilu_fwd(vq[l], f[PPE_TILEILU_LB * L + l], yb[l], f[PPE_TILEILU_LS * L + l], ys[l], f[PPE_TILEILU_LW * L + l], yw[l]);
      }
  for (PetscInt c = tz - 1; c >= 0; c--)
    for (PetscInt b = ty - 1; b >= 0; b--)
      for (PetscInt a = tx - 1; a >= 0; a--) {
        const PetscInt qq = a + tx * b + txy * c;
        const double  *zt = c < tz - 1 ? v + (size_t)(qq + txy) * L : zero, *zn = b < ty - 1 ? v + (size_t)(qq + tx) * L : zero, *ze = a < tx - 1 ? v + (size_t)(qq + 1) * L : zero;
        const double  *f = F + (size_t)qq * nc * L;
        /* the upper couplings: stored, or the multipliers of the upper neighbours */
        const double *ut = sym ? (c < tz - 1 ? F + ((size_t)(qq + txy) * nc + PPE_TILEILU_LB) * L : zero) : f + PPE_TILEILU_UT * L;
        const double *un = sym ? (b < ty - 1 ? F + ((size_t)(qq + tx) * nc + PPE_TILEILU_LS) * L : zero) : f + PPE_TILEILU_UN * L;
        const double *ue = sym ? (a < tx - 1 ? F + ((size_t)(qq + 1) * nc + PPE_TILEILU_LW) * L : zero) : f + PPE_TILEILU_UE * L;
        double       *vq = v + (size_t)qq * L;

        PPE_HOST_IVDEP
        for (PetscInt l = 0; l < L; l++) vq[l] = ppe_tileilu_bwd(vq[l], f[kd * L + l], ut[l], zt[l], un[l], zn[l], ue[l], ze[l]);
      }
}

#if PPE_HAVE_VECTOR_EXT
/*
   The same sweeps for a full group of 8 lanes, as two halves of 4 lanes in the compiler's
   vector type (one AVX2 register, two SSE2 ones): two independent chains per position. The
   values of the previous position stay in registers; absent neighbours are read from a
   zero vector through a pointer (no vector selects).
*/
PPE_HOST_TARGET PPE_HOST_INLINE void PPE_HOST_FN(Group8)(const int sym, PetscInt tx, PetscInt ty, PetscInt tz, const double *F, double *v)
{
  static const double zd[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  const ppe_v4d      *Z     = (const ppe_v4d *)zd;
  const PetscInt      txy = tx * ty, nc = sym ? PPE_TILEILU_NCOEF_SYM : PPE_TILEILU_NCOEF, kd = sym ? PPE_TILEILU_DINV_SYM : PPE_TILEILU_DINV;
  const ppe_v4d      *Fv = (const ppe_v4d *)F; /* Fv[2 (q nc + kind) + half] */
  ppe_v4d            *V  = (ppe_v4d *)v;       /* V[2 q + half] */
  PetscInt            q  = 0;

  for (PetscInt c = 0; c < tz; c++)
    for (PetscInt b = 0; b < ty; b++) {
      ppe_v4d w0 = Z[0], w1 = Z[1];
      for (PetscInt a = 0; a < tx; a++, q++) {
        const ppe_v4d *f  = Fv + (size_t)2 * q * nc;
        const ppe_v4d *yb = c ? V + (size_t)2 * (q - txy) : Z, *ys = b ? V + (size_t)2 * (q - tx) : Z;

        w0           = PPE_TILEILU_FWD_EXPR(V[2 * q], f[2 * PPE_TILEILU_LB], yb[0], f[2 * PPE_TILEILU_LS], ys[0], f[2 * PPE_TILEILU_LW], w0);
        w1           = PPE_TILEILU_FWD_EXPR(V[2 * q + 1], f[2 * PPE_TILEILU_LB + 1], yb[1], f[2 * PPE_TILEILU_LS + 1], ys[1], f[2 * PPE_TILEILU_LW + 1], w1);
        V[2 * q]     = w0;
        V[2 * q + 1] = w1;
      }
    }
  for (PetscInt c = tz - 1; c >= 0; c--)
    for (PetscInt b = ty - 1; b >= 0; b--) {
      ppe_v4d e0 = Z[0], e1 = Z[1];
      for (PetscInt a = tx - 1; a >= 0; a--) {
        const PetscInt qq = a + tx * b + txy * c;
        const ppe_v4d *f  = Fv + (size_t)2 * qq * nc;
        const ppe_v4d *zt = c < tz - 1 ? V + (size_t)2 * (qq + txy) : Z, *zn = b < ty - 1 ? V + (size_t)2 * (qq + tx) : Z, *ut, *un, *ue;

        if (sym) { /* the multipliers of the upper neighbours */
          ut = c < tz - 1 ? Fv + (size_t)2 * ((qq + txy) * nc + PPE_TILEILU_LB) : Z;
          un = b < ty - 1 ? Fv + (size_t)2 * ((qq + tx) * nc + PPE_TILEILU_LS) : Z;
          ue = a < tx - 1 ? Fv + (size_t)2 * ((qq + 1) * nc + PPE_TILEILU_LW) : Z;
        } else {
          ut = f + 2 * PPE_TILEILU_UT;
          un = f + 2 * PPE_TILEILU_UN;
          ue = f + 2 * PPE_TILEILU_UE;
        }
        e0            = PPE_TILEILU_BWD_EXPR(V[2 * qq], f[2 * kd], ut[0], zt[0], un[0], zn[0], ue[0], e0);
        e1            = PPE_TILEILU_BWD_EXPR(V[2 * qq + 1], f[2 * kd + 1], ut[1], zt[1], un[1], zn[1], ue[1], e1);
        V[2 * qq]     = e0;
        V[2 * qq + 1] = e1;
      }
    }
}
#endif

/* One group: full-width groups with a compile-time lane count, symmetric or general. */
PPE_HOST_TARGET PPE_HOST_INLINE void PPE_HOST_FN(SweepGroup)(const ppe_dev_tiles *T, const double *Fg, double *vg)
{
  const PetscInt L = T->lanes, tx = T->tile[0], ty = T->tile[1], tz = T->tile[2];

#if PPE_HAVE_VECTOR_EXT
  if (L == 8) {
    if (T->sym) PPE_HOST_FN(Group8)(1, tx, ty, tz, Fg, vg);
    else PPE_HOST_FN(Group8)(0, tx, ty, tz, Fg, vg);
    return;
  }
#endif
  if (T->sym) PPE_HOST_FN(Group)(L, 1, tx, ty, tz, Fg, vg);
  else PPE_HOST_FN(Group)(L, 0, tx, ty, tz, Fg, vg);
}

/* Every group of the packed values v. */
PPE_HOST_TARGET static void PPE_HOST_FN(SweepZYX)(const ppe_dev_tiles *T, const double *F, double *v)
{
  const size_t nf = (size_t)NPos(T) * T->nc * T->lanes, nv = (size_t)NPos(T) * T->lanes;

  for (long g = 0; g < T->ngroups; g++) PPE_HOST_FN(SweepGroup)(T, F + g * nf, v + g * nv);
}

/* Chunk by chunk: gather into the one-chunk buffer v, sweep its groups, scatter. */
PPE_HOST_TARGET static void PPE_HOST_FN(ApplyZYXFused)(const ppe_dev_tiles *T, const double *F, const double *r, double *v, double *z)
{
  const size_t nf = (size_t)NPos(T) * T->nc * T->lanes, nv = (size_t)NPos(T) * T->lanes;

  for (long g0 = 0; g0 < T->ngroups; g0 += T->chunk) {
    GatherChunk(T, (PetscInt)g0, r, v);
    for (long g = g0; g < g0 + T->chunk && g < T->ngroups; g++) PPE_HOST_FN(SweepGroup)(T, F + g * nf, v + (g - g0) * nv);
    ScatterChunk(T, (PetscInt)g0, v, z);
  }
}
