/*
   Group loops of the zyx tile sweeps, instantiated by tileilu_host.c once per instruction
   set: PPE_TILES_SUFFIX names the instance, PPE_TILES_TARGET is its target attribute.
*/

#define PPE_TCAT_(a, b) a##b
#define PPE_TCAT(a, b)  PPE_TCAT_(a, b)
#define PPE_TILES(name) PPE_TCAT(name, PPE_TILES_SUFFIX)

#if defined(__GNUC__) && !defined(__clang__)
  #define PPE_TILES_IVDEP _Pragma("GCC ivdep")
#else
  #define PPE_TILES_IVDEP
#endif

/*
   Forward then backward sweep of one group of L tiles of shape tx x ty x tz, in place on
   its values v[q][l], with its factors F[q][kind][l]. The lane loop of a position is
   independent across lanes (different tiles), which ivdep tells the vectoriser; neighbours
   outside the tile read zeros.
*/
PPE_TILES_TARGET PPE_INLINE void PPE_TILES(Group)(const PetscInt L, PetscInt tx, PetscInt ty, PetscInt tz, const double *restrict F, double *restrict v)
{
  static const double zero[PPE_TILEILU_SZ] = {0.0};
  const PetscInt      txy = tx * ty;
  PetscInt            q   = 0;

  for (PetscInt c = 0; c < tz; c++)
    for (PetscInt b = 0; b < ty; b++)
      for (PetscInt a = 0; a < tx; a++, q++) {
        const double *yb = c ? v + (size_t)(q - txy) * L : zero, *ys = b ? v + (size_t)(q - tx) * L : zero, *yw = a ? v + (size_t)(q - 1) * L : zero;
        const double *f  = F + (size_t)q * PPE_TILEILU_NCOEF * L;
        double       *vq = v + (size_t)q * L;

        PPE_TILES_IVDEP
        for (PetscInt l = 0; l < L; l++) vq[l] = ppe_tileilu_fwd(vq[l], f[PPE_TILEILU_LB * L + l], yb[l], f[PPE_TILEILU_LS * L + l], ys[l], f[PPE_TILEILU_LW * L + l], yw[l]);
      }
  for (PetscInt c = tz - 1; c >= 0; c--)
    for (PetscInt b = ty - 1; b >= 0; b--)
      for (PetscInt a = tx - 1; a >= 0; a--) {
        const PetscInt qq = a + tx * b + txy * c;
        const double  *zt = c < tz - 1 ? v + (size_t)(qq + txy) * L : zero, *zn = b < ty - 1 ? v + (size_t)(qq + tx) * L : zero, *ze = a < tx - 1 ? v + (size_t)(qq + 1) * L : zero;
        const double  *f  = F + (size_t)qq * PPE_TILEILU_NCOEF * L;
        double        *vq = v + (size_t)qq * L;

        PPE_TILES_IVDEP
        for (PetscInt l = 0; l < L; l++) vq[l] = ppe_tileilu_bwd(vq[l], f[PPE_TILEILU_DINV * L + l], f[PPE_TILEILU_UT * L + l], zt[l], f[PPE_TILEILU_UN * L + l], zn[l], f[PPE_TILEILU_UE * L + l], ze[l]);
      }
}

/* Every group; the full-width groups with a compile-time lane count. */
PPE_TILES_TARGET static void PPE_TILES(SweepZYX)(const PPETileILU *T, const double *F)
{
  const PetscInt L = T->lanes;

  for (PetscInt g = 0; g < T->ngroups; g++) {
    const double *Fg = F + (size_t)g * T->npos * PPE_TILEILU_NCOEF * L;
    double       *vg = T->v + (size_t)g * T->npos * L;

    if (L == PPE_TILEILU_SZ) PPE_TILES(Group)(PPE_TILEILU_SZ, T->tile[0], T->tile[1], T->tile[2], Fg, vg);
    else PPE_TILES(Group)(L, T->tile[0], T->tile[1], T->tile[2], Fg, vg);
  }
}
