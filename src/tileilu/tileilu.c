/*
   Tile ILU(0): block-Jacobi ILU(0) of the 7-point operator on small tiles of the rank's box.

   Method:
     The box (xm x ym x zm points) is cut into tiles of bx x by x bz points (the last tiles
     of a direction are smaller when the shape does not divide the box). On each tile, the
     operator restricted to the tile (couplings leaving the tile dropped, periodic wraps
     included) is factorised by ILU(0) in lexicographic order. For a 7-point row no fill
     enters the pattern, so the factors are (Saad, Iterative Methods, sec. 10.3.2)

       d_p  = a_pp - l_pb a_bp - l_ps a_sp - l_pw a_wp,   l_pk = a_pk / d_k,

     with the neighbours b, s, w (and e, n, t) taken only inside the tile. A 2D operator is
     the 7-point one on its 3D box nx x 1 x ny (T->dim = 2): tiles tx x 1 x ty, no s or n. With one tile per
     rank this is PETSc's bjacobi with ILU(0) sub-solves in natural ordering.

     Layouts (src/kernels/tileilu.h): xyz sweeps each tile in place in the vector's order;
     zyx packs groups of tiles so that the same point of consecutive tiles is contiguous
     (the SZ packing of Akkurt et al. (2025), sec. 4.1, applied to tiles; Ali et al. (2019),
     sec. IV.B and Fig. 1c): the factors are permuted once at set-up, the values gathered and scattered at
     every apply.

   References:
     Y. Saad, Iterative Methods for Sparse Linear Systems, 2nd ed., SIAM 2003, sec. 10.3.
     Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of
     communication avoiding Chebyshev basis conjugate gradient solver for multiphase CFD
     simulations", ScalA workshop at SC19 (IEEE/ACM), 2019 (block-Jacobi ILU on GPU tiles,
     Table I).
     S. Akkurt, S. Lemaire, P. Bartholomew and S. Laizet, "A distributed-memory tridiagonal
     solver based on a specialised data structure optimised for CPU and GPU architectures",
     Computer Physics Communications, 2025 (arXiv:2411.13532) (SZ-packed batches, sec. 4.1).
*/
#include <ppekit/private/tileiluimpl.h>

PetscErrorCode PPETileILUFormat(PetscInt dim, const PetscInt lo[], const PetscInt v[3], char buf[], size_t len)
{
  int dir[3], nd = PPETileILUUserDirs(dim, dir);

  PetscFunctionBegin;
  buf[0] = 0;
  for (int i = 0; i < nd; i++) {
    char one[48];

    if (lo) PetscCall(PetscSNPrintf(one, sizeof(one), "%s%" PetscInt_FMT "..%" PetscInt_FMT, i ? " x " : "", lo[dir[i]], v[dir[i]]));
    else PetscCall(PetscSNPrintf(one, sizeof(one), "%s%" PetscInt_FMT, i ? " x " : "", v[dir[i]]));
    PetscCall(PetscStrlcat(buf, one, len));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Origin and extent of tile number t. */
static inline void TileBox(const PPETileILU *T, PetscInt t, PetscInt o[3], PetscInt e[3])
{
  PetscInt ti[3] = {t % T->nt[0], (t / T->nt[0]) % T->nt[1], t / (T->nt[0] * T->nt[1])};

  for (int d = 0; d < 3; d++) {
    o[d] = ti[d] * T->tile[d];
    e[d] = PetscMin(T->tile[d], T->box[d] - o[d]);
  }
}

/* Index of factor kind k (of the T->nc stored) of point (a,b,c) of tile t in the layout of T. */
static inline size_t FactorIndex(const PPETileILU *T, int k, PetscInt t, PetscInt a, PetscInt b, PetscInt c)
{
  if (T->layout == PC_TILEILU_LAYOUT_XYZ) {
    PetscInt o[3], e[3];
    TileBox(T, t, o, e);
    return (size_t)k * T->nloc + (size_t)(o[0] + a) + (size_t)T->box[0] * ((o[1] + b) + (size_t)T->box[1] * (o[2] + c));
  } else {
    size_t g = (size_t)(t / T->lanes), l = (size_t)(t % T->lanes), q = (size_t)(a + T->tile[0] * (b + T->tile[1] * c));
    return ((g * T->npos + q) * T->nc + k) * T->lanes + l;
  }
}

/*
   Factorise every tile into natural-order (xyz) arrays F[kind][nloc]. Stops at the first
   failure of this rank (a row that is not 7-point, a zero pivot) and describes it in bad[].
*/
static PetscErrorCode Factor(const PPETileILU *T, const PPETileILUSource *src, PetscMPIInt rank, double *F, char bad[], size_t len, PetscErrorCode *code, PetscReal *pmin, PetscBool *sym)
{
  const PetscInt nloc = T->nloc, m0 = T->box[0], m1 = T->box[1];
  double        *dinv, *ue, *un, *ut;

  PetscFunctionBegin;
  bad[0] = 0;
  *pmin  = 1.0;
  *sym   = PETSC_TRUE;
  PetscCall(PetscMalloc4(T->npos, &dinv, T->npos, &ue, T->npos, &un, T->npos, &ut));
  for (PetscInt t = 0; t < T->ntiles && !bad[0]; t++) {
    PetscInt o[3], e[3], exy;

    TileBox(T, t, o, e);
    exy = e[0] * e[1];
    for (PetscInt c = 0; c < e[2] && !bad[0]; c++)
      for (PetscInt b = 0; b < e[1] && !bad[0]; b++)
        for (PetscInt a = 0; a < e[0]; a++) {
          PetscInt q = a + e[0] * (b + e[1] * c), p = (o[0] + a) + m0 * ((o[1] + b) + m1 * (o[2] + c));
          double   A[7], lw = 0, ls = 0, lb = 0, piv, scale = 0;

          PetscCall(PPETileILUSourceGetRow(src, o[0] + a, o[1] + b, o[2] + c, A, bad, len));
          if (bad[0]) {
            *code = PETSC_ERR_SUP;
            break;
          }
          for (int k = 0; k < 7; k++) scale += PetscAbsReal(A[k]);
          /* couplings leaving the tile are dropped */
          if (a == 0) A[1] = 0;
          if (a == e[0] - 1) A[2] = 0;
          if (b == 0) A[3] = 0;
          if (b == e[1] - 1) A[4] = 0;
          if (c == 0) A[5] = 0;
          if (c == e[2] - 1) A[6] = 0;
          /* symmetric: each lower coupling equals the upper coupling of that neighbour */
          if ((c > 0 && A[5] != ut[q - exy]) || (b > 0 && A[3] != un[q - e[0]]) || (a > 0 && A[1] != ue[q - 1])) *sym = PETSC_FALSE;
          piv = A[0];
          if (c > 0) {
            lb = A[5] * dinv[q - exy];
            piv -= lb * ut[q - exy];
          }
          if (b > 0) {
            ls = A[3] * dinv[q - e[0]];
            piv -= ls * un[q - e[0]];
          }
          if (a > 0) {
            lw = A[1] * dinv[q - 1];
            piv -= lw * ue[q - 1];
          }
          if (!(PetscAbsReal(piv) > 100.0 * PETSC_MACHINE_EPSILON * scale)) {
            PetscInt tt[3] = {o[0] / T->tile[0], o[1] / T->tile[1], o[2] / T->tile[2]}, s[3] = {src->s[0] + o[0], src->s[1] + o[1], src->s[2] + o[2]};
            PetscInt hi[3] = {s[0] + e[0] - 1, s[1] + e[1] - 1, s[2] + e[2] - 1};
            char     tn[64], at[64], span[160];

            PetscCall(PPETileILUSourcePoint(src, tt[0], tt[1], tt[2], tn, sizeof(tn)));
            PetscCall(PPETileILUSourcePoint(src, s[0] + a, s[1] + b, s[2] + c, at, sizeof(at)));
            PetscCall(PPETileILUFormat(T->dim, s, hi, span, sizeof(span)));
            PetscCall(PetscSNPrintf(bad, len, "PC tileilu: zero pivot %.3e in tile %s of rank %d, the points %s, at point %s whose diagonal entry is %.3e: the operator restricted to this tile has no ILU(0) factorisation", (double)piv, tn, (int)rank,
                                    span, at, (double)A[0]));
            *code = PETSC_ERR_MAT_LU_ZRPVT;
            break;
          }
          if (PetscAbsReal(piv) < *pmin * PetscAbsReal(A[0])) *pmin = PetscAbsReal(piv) / PetscAbsReal(A[0]);
          dinv[q]                                = 1.0 / piv;
          ue[q]                                  = A[2];
          un[q]                                  = A[4];
          ut[q]                                  = A[6];
          F[PPE_TILEILU_LW * (size_t)nloc + p]   = lw;
          F[PPE_TILEILU_LS * (size_t)nloc + p]   = ls;
          F[PPE_TILEILU_LB * (size_t)nloc + p]   = lb;
          F[PPE_TILEILU_UE * (size_t)nloc + p]   = A[2] * dinv[q];
          F[PPE_TILEILU_UN * (size_t)nloc + p]   = A[4] * dinv[q];
          F[PPE_TILEILU_UT * (size_t)nloc + p]   = A[6] * dinv[q];
          F[PPE_TILEILU_DINV * (size_t)nloc + p] = dinv[q];
        }
  }
  PetscCall(PetscFree4(dinv, ue, un, ut));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The kinds kept: all, or for symmetric storage the multipliers and the inverse pivot. */
static inline int KindSource(const PPETileILU *T, int k)
{
  return (T->sym && k == PPE_TILEILU_DINV_SYM) ? PPE_TILEILU_DINV : k;
}

/* A visit of point (a,b,c) of tile t (its box: origin o, extents e) in the factor set-up. */
typedef void (*TilePointFn)(const PPETileILU *, PetscInt t, const PetscInt o[3], const PetscInt e[3], PetscInt a, PetscInt b, PetscInt c, const double *src, double *dst);

/* fn at every point of every tile, tile by tile, each in natural order. */
static void ForEachTilePoint(const PPETileILU *T, TilePointFn fn, const double *src, double *dst)
{
  for (PetscInt t = 0; t < T->ntiles; t++) {
    PetscInt o[3], e[3];

    TileBox(T, t, o, e);
    for (PetscInt c = 0; c < e[2]; c++)
      for (PetscInt b = 0; b < e[1]; b++)
        for (PetscInt a = 0; a < e[0]; a++) fn(T, t, o, e, a, b, c, src, dst);
  }
}

/* The layout change of the factors of one point, natural order with 7 kinds (Fx) -> the
   layout and kinds of T (Fz). */
static void PackPoint(const PPETileILU *T, PetscInt t, const PetscInt o[3], const PetscInt e[3], PetscInt a, PetscInt b, PetscInt c, const double *Fx, double *Fz)
{
  size_t p = (size_t)(o[0] + a) + (size_t)T->box[0] * ((o[1] + b) + (size_t)T->box[1] * (o[2] + c));

  for (int k = 0; k < T->nc; k++) Fz[FactorIndex(T, k, t, a, b, c)] = Fx[(size_t)KindSource(T, k) * T->nloc + p];
}

/*
   The factors of M^T = U^T L^T at one point, in the same form: M^T = (I + U~^T D^-1) (D + D
   L~^T), so the multiplier of w is the scaled upper coupling of w towards p, the scaled upper
   coupling of e is the multiplier of p in e's row, and the pivots are unchanged.
*/
static void TransposePoint(const PPETileILU *T, PetscInt t, const PetscInt o[3], const PetscInt e[3], PetscInt a, PetscInt b, PetscInt c, const double *F, double *ft)
{
  ft[FactorIndex(T, PPE_TILEILU_LW, t, a, b, c)]   = a > 0 ? F[FactorIndex(T, PPE_TILEILU_UE, t, a - 1, b, c)] : 0.0;
  ft[FactorIndex(T, PPE_TILEILU_LS, t, a, b, c)]   = b > 0 ? F[FactorIndex(T, PPE_TILEILU_UN, t, a, b - 1, c)] : 0.0;
  ft[FactorIndex(T, PPE_TILEILU_LB, t, a, b, c)]   = c > 0 ? F[FactorIndex(T, PPE_TILEILU_UT, t, a, b, c - 1)] : 0.0;
  ft[FactorIndex(T, PPE_TILEILU_UE, t, a, b, c)]   = a < e[0] - 1 ? F[FactorIndex(T, PPE_TILEILU_LW, t, a + 1, b, c)] : 0.0;
  ft[FactorIndex(T, PPE_TILEILU_UN, t, a, b, c)]   = b < e[1] - 1 ? F[FactorIndex(T, PPE_TILEILU_LS, t, a, b + 1, c)] : 0.0;
  ft[FactorIndex(T, PPE_TILEILU_UT, t, a, b, c)]   = c < e[2] - 1 ? F[FactorIndex(T, PPE_TILEILU_LB, t, a, b, c + 1)] : 0.0;
  ft[FactorIndex(T, PPE_TILEILU_DINV, t, a, b, c)] = F[FactorIndex(T, PPE_TILEILU_DINV, t, a, b, c)];
}

/*
   n values of the host array h in the memory of T's back end: h itself on the host, whose
   memory that is (no copy); else a new array of the back end, h copied in when copy is set.
*/
static PetscErrorCode Mirror(PPETileILU *T, double *h, size_t n, PetscBool copy, double **b)
{
  PetscFunctionBegin;
  *b = h;
  if (T->ops == &PPEBackendOps_Host) PetscFunctionReturn(PETSC_SUCCESS);
  PPEBackendCall(T->ops, T->ops->alloc((void **)b, PetscMax(n, 1) * sizeof(double)));
  if (copy) PPEBackendCall(T->ops, T->ops->copy(*b, h, n * sizeof(double), PPE_DEV_H2D, T->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Free what Mirror() made for h. */
static PetscErrorCode MirrorFree(PPETileILU *T, const double *h, double **b)
{
  PetscFunctionBegin;
  if (*b && *b != h) PPEBackendCall(T->ops, T->ops->release(*b));
  *b = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   The arrays of the applications in the memory of back end b: the factors, and in the zyx
   layout the packed values (one chunk where the back end runs the fused apply, else every
   group).
*/
static PetscErrorCode SetUpBackend(PPETileILU *T)
{
  PetscFunctionBegin;
  PetscCall(PPEBackendStream(T->backend, &T->ops, &T->stream));
  T->tiles = (ppe_dev_tiles){
    .sym     = T->sym ? 1 : 0,
    .nloc    = T->nloc,
    .box     = {T->box[0],  T->box[1],  T->box[2] },
    .tile    = {T->tile[0], T->tile[1], T->tile[2]},
    .nt      = {T->nt[0],   T->nt[1],   T->nt[2]  },
    .ntiles  = T->ntiles,
    .lanes   = T->lanes,
    .ngroups = T->ngroups,
    .nc      = T->nc,
    .chunk   = T->chunk
  };
  T->fusedrun = (PetscBool)(T->layout == PC_TILEILU_LAYOUT_ZYX && T->fused && T->ops->tileilu_fused);
  PetscCall(Mirror(T, T->f, T->nf, PETSC_TRUE, &T->fb));
  if (T->layout == PC_TILEILU_LAYOUT_ZYX) PetscCall(Mirror(T, T->v, (size_t)(T->fusedrun ? T->chunk : T->ngroups) * T->npos * T->lanes, PETSC_FALSE, &T->vb));
  PPEBackendCall(T->ops, T->ops->sync(T->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPETileILUReset(PPETileILU *T)
{
  PetscFunctionBegin;
  if (T->ops) {
    PPEBackendCall(T->ops, T->ops->sync(T->stream));
    PetscCall(MirrorFree(T, T->f, &T->fb));
    PetscCall(MirrorFree(T, T->ft, &T->ftb));
    PetscCall(MirrorFree(T, T->v, &T->vb));
  }
  PetscCall(PetscFree(T->f));
  PetscCall(PetscFree(T->ft));
  PetscCall(PetscFree(T->v));
  PetscCall(PetscMemzero(T, sizeof(*T)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bytes held: factors (and transposed factors once built) and the packed values. */
size_t PPETileILUMemory(const PPETileILU *T)
{
  return sizeof(double) * (T->nf * (T->ft ? 2 : 1) + T->nv);
}

/*
   PPETileILUSetUp - tiles the box of src with tiles of shape req (clamped to the box),
   factorises every tile and stores the factors in the given layout. Collective on comm: a
   zero pivot or a row that is not 7-point on any rank is an error on every rank, with the
   message of the first failing rank (naming the tile).
*/
PetscErrorCode PPETileILUSetUp(PPETileILU *T, const PPETileILUSource *src, const PetscInt req[3], PCTileILULayout layout, PetscBool fused, PPEBackend b, MPI_Comm comm)
{
  char           bad[1024];
  PetscErrorCode code = 0;
  double        *Fx;
  PetscInt       full = 1;
  PetscMPIInt    rank;
  PetscReal      pmin;

  PetscFunctionBegin;
  PetscCall(PPETileILUReset(T));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  T->layout = layout;
  T->dim    = src->dim;
  T->ntiles = 1;
  T->npos   = 1;
  for (int d = 0; d < 3; d++) {
    PetscCheck(req[d] >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Tile sizes must be >= 1, got %" PetscInt_FMT " in direction %c", req[d], "xyz"[d]);
    T->box[d]  = src->m[d];
    T->tile[d] = PetscMin(req[d], src->m[d]);
    T->nt[d]   = (T->box[d] + T->tile[d] - 1) / T->tile[d];
    T->ntiles *= T->nt[d];
    T->npos *= T->tile[d];
    full *= T->box[d] / T->tile[d];
  }
  T->nloc  = T->box[0] * T->box[1] * T->box[2];
  T->nedge = T->ntiles - full;
  T->nf    = (size_t)PPE_TILEILU_NCOEF * T->nloc;

  PetscCall(PetscLogEventBegin(PPE_TileILUFact, 0, 0, 0, 0));
  PetscCall(PetscMalloc1(T->nf, &Fx));
  T->f = Fx; /* freed by PPETileILUReset() if the set-up fails */
  PetscCall(Factor(T, src, rank, Fx, bad, sizeof(bad), &code, &pmin, &T->sym));
  PetscCall(PetscLogEventEnd(PPE_TileILUFact, 0, 0, 0, 0));
  if (!bad[0]) {
    char shape[96];

    PetscCall(PPETileILUFormat(T->dim, NULL, T->tile, shape, sizeof(shape)));
    PetscCall(PetscInfo(NULL, "%" PetscInt_FMT " tiles of %s factorised (%s); smallest |pivot| / |diagonal| %g\n", T->ntiles, shape, T->sym ? "symmetric" : "nonsymmetric", (double)pmin));
  }
  PetscCall(PPERaiseCollective(comm, code, bad));
  T->nc = T->sym ? PPE_TILEILU_NCOEF_SYM : PPE_TILEILU_NCOEF;
  if (layout == PC_TILEILU_LAYOUT_ZYX) {
    PetscCall(PetscLogEventBegin(PPE_TileILUPerm, 0, 0, 0, 0));
    T->fused   = fused;
    T->lanes   = PetscMin(PPE_TILEILU_SZ, T->ntiles);
    T->ngroups = (T->ntiles + T->lanes - 1) / T->lanes;
    if (T->lanes < PPE_TILEILU_SZ) PetscCall(PetscInfo(NULL, "Only %" PetscInt_FMT " tiles on this rank: the zyx sweeps run over fewer than %d SIMD lanes; the xyz layout is faster with so few tiles\n", T->ntiles, PPE_TILEILU_SZ));
    /* chunks: when the groups are whole tile rows, the groups of a row (or of a divisor of
       it) as long as their values fit in 1 MiB, so that gather and scatter stream rows */
    T->chunk = 1;
    if (T->nt[0] % T->lanes == 0)
      for (PetscInt n = T->nt[0] / T->lanes; n > 1; n--)
        if ((T->nt[0] / T->lanes) % n == 0 && (size_t)n * T->npos * T->lanes * sizeof(double) <= ((size_t)1 << 20)) {
          T->chunk = n;
          break;
        }
    T->nv = (size_t)(fused ? T->chunk : T->ngroups) * T->npos * T->lanes;
    PetscCall(PetscCalloc1(T->nv, &T->v));
  }
  if (layout == PC_TILEILU_LAYOUT_ZYX || T->sym) {
    double *Fz;

    T->nf = (size_t)(layout == PC_TILEILU_LAYOUT_ZYX ? T->ngroups * T->npos * T->lanes : T->nloc) * T->nc;
    PetscCall(PetscCalloc1(T->nf, &Fz)); /* padded points of zyx keep zero factors */
    ForEachTilePoint(T, PackPoint, Fx, Fz);
    PetscCall(PetscFree(T->f));
    T->f = Fz;
  }
  if (layout == PC_TILEILU_LAYOUT_ZYX) PetscCall(PetscLogEventEnd(PPE_TileILUPerm, 0, 0, 0, 0));
  T->backend = b;
  PetscCall(SetUpBackend(T)); /* the factors in the back end's memory: device copies now, not at the first application */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The factors of M^T, built on the host at the first transposed application and copied to
   the back end. */
static PetscErrorCode SetUpTranspose(PPETileILU *T)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_TileILUFact, 0, 0, 0, 0));
  PetscCall(PetscCalloc1(T->nf, &T->ft));
  ForEachTilePoint(T, TransposePoint, T->f, T->ft);
  PetscCall(PetscLogEventEnd(PPE_TileILUFact, 0, 0, 0, 0));
  PetscCall(Mirror(T, T->ft, T->nf, PETSC_TRUE, &T->ftb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPETileILUApply - z = M^-1 r (or M^-T r), r and z in the natural order of the box, arrays
   in the memory of T's back end; z must not alias r. Returns when z is there.
*/
PetscErrorCode PPETileILUApply(PPETileILU *T, PetscBool transpose, const double *r, double *z)
{
  const PPEBackendOps *ops;
  const double        *F;

  PetscFunctionBegin;
  ops = T->ops;
  if (T->sym) transpose = PETSC_FALSE; /* M^T = M */
  if (transpose && !T->ft) PetscCall(SetUpTranspose(T));
  F = transpose ? T->ftb : T->fb;
  PetscCall(PetscLogEventBegin(PPE_TileILUApply, 0, 0, 0, 0));
  if (T->layout == PC_TILEILU_LAYOUT_XYZ) {
    PetscCall(PetscLogEventBegin(PPE_TileILUSweep, 0, 0, 0, 0));
    PPEBackendCall(ops, ops->tileilu_xyz(&T->tiles, F, r, z, T->stream));
    PetscCall(PetscLogEventEnd(PPE_TileILUSweep, 0, 0, 0, 0));
  } else if (T->fusedrun) { /* gather, sweep and scatter chunk by chunk */
    PetscCall(PetscLogEventBegin(PPE_TileILUSweep, 0, 0, 0, 0));
    PPEBackendCall(ops, ops->tileilu_fused(&T->tiles, F, r, T->vb, z, T->stream));
    PetscCall(PetscLogEventEnd(PPE_TileILUSweep, 0, 0, 0, 0));
  } else {
    PetscCall(PetscLogEventBegin(PPE_TileILUGather, 0, 0, 0, 0));
    PPEBackendCall(ops, ops->tileilu_gather(&T->tiles, r, T->vb, T->stream));
    PetscCall(PetscLogEventEnd(PPE_TileILUGather, 0, 0, 0, 0));
    PetscCall(PetscLogEventBegin(PPE_TileILUSweep, 0, 0, 0, 0));
    PPEBackendCall(ops, ops->tileilu_zyx(&T->tiles, F, T->vb, T->stream));
    PetscCall(PetscLogEventEnd(PPE_TileILUSweep, 0, 0, 0, 0));
    PetscCall(PetscLogEventBegin(PPE_TileILUScatter, 0, 0, 0, 0));
    PPEBackendCall(ops, ops->tileilu_scatter(&T->tiles, T->vb, z, T->stream));
    PetscCall(PetscLogEventEnd(PPE_TileILUScatter, 0, 0, 0, 0));
  }
  PPEBackendCall(ops, ops->sync(T->stream));
  PetscCall(PetscLogFlops(13.0 * T->nloc));
  PetscCall(PetscLogEventEnd(PPE_TileILUApply, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
