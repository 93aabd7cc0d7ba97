static const char help[] = "The device launchers of the batched tridiagonal kernels and of the tile ILU(0) sweeps\n\
against the host back end, bitwise (the same single-source bodies in the same order):\n\
  - thomas, pthomas, reduce, recon, pre-computed and fly, n = 2, 3, 17 rows, on full and\n\
    partial blocks of lanes in the packed, natural (lane and line contiguous) and reduced-\n\
    system layouts, with shared and per-line coefficients and factors, pinned lanes;\n\
  - tile ILU: xyz sweeps, zyx gather, sweep and scatter, symmetric and general factors,\n\
    edge tiles, empty lanes, fewer tiles than lanes; the host's fused zyx apply against\n\
    its three passes.\n\
  -ppe_backend NAME   device back end to compare (default: emu)\n\n";

#include <ppekit.h>
#include <ppekit/private/backendimpl.h>
#include <ppekit/private/tridiagimpl.h>
#include <ppekit/private/tileiluimpl.h>
#include "tap.h"
#include "devutil.h"

/* Reproducible uniform numbers in [lo, hi). */
static unsigned long long rng_state = 192;
static double             Uniform(double lo, double hi)
{
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return lo + (hi - lo) * (double)(rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static void Fill(double *v, size_t n, double lo, double hi)
{
  for (size_t i = 0; i < n; i++) v[i] = Uniform(lo, hi);
}

/* ------------------------------------------------------------ tridiagonal kernels */

/* The arrays of a kernel call (PPETdArgs); rb0, rb1 are r0, r1 (reduce) and x0, x1 (recon). */
enum {
  TD_A,
  TD_E,
  TD_C,
  TD_W,
  TD_SHIFT,
  TD_MASK,
  TD_IP,
  TD_Q,
  TD_AL,
  TD_BE,
  TD_LAST,
  TD_D,
  TD_RB0,
  TD_RB1,
  TD_S,
  TD_T,
  TD_U,
  TD_NARR
};
static const PetscBool td_written[TD_NARR] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1};

typedef struct {
  long gs, rs, ls;
} Stride;

typedef enum {
  DATA_PACKED,    /* [group][row][lane] */
  DATA_NATURAL,   /* element (s, k) at s + k nsys: groups of SZ consecutive lines */
  DATA_LINEMAJOR, /* element (s, k) at s n + k: ls = n, not unit */
  DATA_REDUCED    /* one group of SZ lanes, [row][lane], as the reduced systems of ptdma */
} DataKind;

typedef struct {
  const char  *name;
  int          G, SZ, nsys; /* groups and lanes per group of the arrays; lines (natural layout) */
  PetscBool    coefline;    /* coefficients per line, else shared by all lines */
  PetscBool    factline;    /* factors per line, else shared */
  DataKind     data;
  ppe_td_lanes R; /* the block run */
} TdLayout;

/* The strides of the arrays of layout L with n rows, as src/tridiag builds its views. */
static void TdStrides(const TdLayout *L, long n, Stride st[])
{
  const long SZ   = L->SZ;
  PetscBool  red  = (PetscBool)(L->data == DATA_REDUCED);
  Stride     line = {red ? 0 : n * SZ, SZ, 1}, shared = {0, 1, 0}, lane = {red ? 0 : SZ, 0, 1};

  st[TD_A] = st[TD_E] = st[TD_C] = L->coefline ? line : shared;
  st[TD_W]                       = shared;
  st[TD_SHIFT] = st[TD_MASK] = st[TD_LAST] = st[TD_RB0] = st[TD_RB1] = lane;
  st[TD_IP] = st[TD_Q] = st[TD_AL] = st[TD_BE] = L->factline ? line : shared;
  st[TD_S] = st[TD_T] = st[TD_U] = line;
  switch (L->data) {
  case DATA_NATURAL:
    st[TD_D].gs = SZ, st[TD_D].rs = L->nsys, st[TD_D].ls = 1;
    break;
  case DATA_LINEMAJOR:
    st[TD_D].gs = SZ * n, st[TD_D].rs = 1, st[TD_D].ls = n;
    break;
  default:
    st[TD_D] = line;
  }
}

/* The views of the arrays at p with strides st. */
static void TdArgs(double *const p[], const Stride st[], PPETdArgs *x)
{
  PetscCallVoid(PetscMemzero(x, sizeof(*x)));
#define TD_VIEW(f, i) \
  do { \
    x->f.v  = p[i]; \
    x->f.gs = st[i].gs; \
    x->f.rs = st[i].rs; \
    x->f.ls = st[i].ls; \
  } while (0)
  TD_VIEW(a, TD_A);
  TD_VIEW(e, TD_E);
  TD_VIEW(c, TD_C);
  TD_VIEW(w, TD_W);
  TD_VIEW(shift, TD_SHIFT);
  TD_VIEW(mask, TD_MASK);
  TD_VIEW(ip, TD_IP);
  TD_VIEW(q, TD_Q);
  TD_VIEW(al, TD_AL);
  TD_VIEW(be, TD_BE);
  TD_VIEW(last, TD_LAST);
  TD_VIEW(d, TD_D);
  TD_VIEW(r0, TD_RB0);
  TD_VIEW(r1, TD_RB1);
  TD_VIEW(x0, TD_RB0);
  TD_VIEW(x1, TD_RB1);
  TD_VIEW(s, TD_S);
  TD_VIEW(t, TD_T);
  TD_VIEW(u, TD_U);
#undef TD_VIEW
}

/* Random well-conditioned contents: M-matrix couplings (A, C < 0, excess > 0), factors of
   the sizes set-up gives, some pinned lanes (mask 0). */
static void TdFill(int i, double *v, size_t n)
{
  switch (i) {
  case TD_A:
  case TD_C:
    Fill(v, n, -1.0, -0.1);
    break;
  case TD_E:
    Fill(v, n, 0.05, 0.5);
    break;
  case TD_W:
    Fill(v, n, 0.5, 1.5);
    break;
  case TD_SHIFT:
    Fill(v, n, 0.0, 1.0);
    break;
  case TD_MASK:
    for (size_t j = 0; j < n; j++) v[j] = j % 7 == 3 ? 0.0 : 1.0;
    break;
  case TD_IP:
  case TD_LAST:
    Fill(v, n, 0.2, 0.5);
    break;
  case TD_Q:
    Fill(v, n, -0.9, 0.0);
    break;
  default:
    Fill(v, n, -1.0, 1.0);
  }
}

static PetscErrorCode CheckTridiagLayout(Dev *D, const TdLayout *L, long n)
{
  const char *const    kname[PPE_TD_K_NUM] = {"thomas", "pthomas", "reduce", "recon"};
  const PPEBackendOps *H                   = &PPEBackendOps_Host;
  Stride               st[TD_NARR];
  size_t               span[TD_NARR];
  double              *h0[TD_NARR], *hw[TD_NARR], *hp[TD_NARR], *dp[TD_NARR], *back[TD_NARR];

  PetscFunctionBegin;
  TdStrides(L, n, st);
  for (int i = 0; i < TD_NARR; i++) {
    span[i] = (size_t)((L->G - 1) * st[i].gs + (n - 1) * st[i].rs + (L->SZ - 1) * st[i].ls + 1);
    PetscCall(PetscMalloc1(span[i], &h0[i]));
    TdFill(i, h0[i], span[i]);
    PetscCall(Upload(D, h0[i], span[i], &dp[i]));
    hw[i] = back[i] = NULL;
    if (td_written[i]) {
      PetscCall(PetscMalloc2(span[i], &hw[i], span[i], &back[i]));
    }
    hp[i] = td_written[i] ? hw[i] : h0[i];
  }
  for (int k = 0; k < PPE_TD_K_NUM; k++)
    for (int fly = 0; fly < 2; fly++) {
      PPETdArgs xh, xd;
      PetscBool same = PETSC_TRUE, changed = PETSC_FALSE;
      double    diff = 0.0;

      for (int i = 0; i < TD_NARR; i++)
        if (td_written[i]) {
          PetscCall(PetscArraycpy(hw[i], h0[i], span[i]));
          DEVCALL(D, D->ops->copy(dp[i], h0[i], span[i] * sizeof(double), PPE_DEV_H2D, D->stream));
        }
      TdArgs(hp, st, &xh);
      TdArgs(dp, st, &xd);
      DEVCALL(D, H->tridiag(k, fly, L->R, n, &xh, NULL));
      DEVCALL(D, D->ops->tridiag(k, fly, L->R, n, &xd, D->stream));
      DEVCALL(D, D->ops->sync(D->stream));
      for (int i = 0; i < TD_NARR; i++)
        if (td_written[i]) {
          PetscCall(Download(D, dp[i], span[i], back[i]));
          if (!SameBits(back[i], hw[i], span[i], &diff)) same = PETSC_FALSE;
          if (memcmp(hw[i], h0[i], span[i] * sizeof(double))) changed = PETSC_TRUE;
        }
      PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(same && changed), "tridiag %s%s n = %ld, %s, lanes [%d,%d) x [%d,%d): %s bitwise equal to the host's: %s (want yes), output written: %s (want yes), max |diff| %.1e", kname[k], fly ? " fly" : "",
                         n, L->name, L->R.g0, L->R.g1, L->R.l0, L->R.l1, D->ops->name, same ? "yes" : "no", changed ? "yes" : "no", diff));
    }
  for (int i = 0; i < TD_NARR; i++) {
    DEVCALL(D, D->ops->release(dp[i]));
    PetscCall(PetscFree(h0[i]));
    if (td_written[i]) PetscCall(PetscFree2(hw[i], back[i]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckTridiag(Dev *D)
{
  /* full blocks are PPE_TD_G groups of PPE_TRIDIAG_SZ lanes: the host's instances of mode */
  const int      SZ = PPE_TRIDIAG_SZ, G = PPE_TD_G;
  const TdLayout layouts[] = {
    {"packed, per-line coefficients and factors (full block)",                  G,     SZ, G * SZ,           PETSC_TRUE,  PETSC_TRUE,  DATA_PACKED,    {0, G, 0, SZ}    },
    {"packed, shared coefficients and factors (full block)",                    G,     SZ, G * SZ,           PETSC_FALSE, PETSC_FALSE, DATA_PACKED,    {0, G, 0, SZ}    },
    {"natural, shared coefficients, per-line factors (full block)",             G,     SZ, G * SZ,           PETSC_FALSE, PETSC_TRUE,  DATA_NATURAL,   {0, G, 0, SZ}    },
    {"packed, per-line (partial block)",                                        3,     SZ, 3 * SZ,           PETSC_TRUE,  PETSC_TRUE,  DATA_PACKED,    {1, 3, 2, 7}     },
    {"natural, shared (last group of 21 lines)",                                3,     SZ, 2 * SZ + 5,       PETSC_FALSE, PETSC_FALSE, DATA_NATURAL,   {2, 3, 0, 5}     },
    {"natural, shared coefficients, per-line factors (all groups in one call)", G + 2, SZ, (G + 2) * SZ - 3, PETSC_FALSE, PETSC_TRUE,  DATA_NATURAL,   {0, G + 1, 0, SZ}},
    {"line-major natural (lane stride n), per-line",                            2,     SZ, 2 * SZ,           PETSC_TRUE,  PETSC_TRUE,  DATA_LINEMAJOR, {0, 2, 1, SZ}    },
    {"packed, per-line (6 groups in one call)",                                 6,     SZ, 6 * SZ,           PETSC_TRUE,  PETSC_TRUE,  DATA_PACKED,    {0, 6, 0, SZ}    },
    {"reduced systems (one group of 13 lanes)",                                 1,     13, 13,               PETSC_TRUE,  PETSC_TRUE,  DATA_REDUCED,   {0, 1, 0, 13}    },
  };
  const long sizes[] = {2, 3, 17};

  PetscFunctionBegin;
  for (size_t j = 0; j < sizeof(layouts) / sizeof(layouts[0]); j++)
    for (int s = 0; s < 3; s++) PetscCall(CheckTridiagLayout(D, &layouts[j], sizes[s]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------ tile ILU */

/* The tiling of a box as PPETileILUSetUp() makes it, as the back ends' launchers take it
   (factors and values set by the caller). */
static void TileSetUp(ppe_dev_tiles *T, const PetscInt box[3], const PetscInt req[3], PetscBool sym)
{
  long npos = 1;

  PetscCallVoid(PetscMemzero(T, sizeof(*T)));
  T->ntiles = 1;
  for (int d = 0; d < 3; d++) {
    T->box[d]  = box[d];
    T->tile[d] = PetscMin(req[d], box[d]);
    T->nt[d]   = (box[d] + T->tile[d] - 1) / T->tile[d];
    T->ntiles *= T->nt[d];
    npos *= T->tile[d];
  }
  T->nloc    = (long)box[0] * box[1] * box[2];
  T->sym     = sym ? 1 : 0;
  T->nc      = sym ? PPE_TILEILU_NCOEF_SYM : PPE_TILEILU_NCOEF;
  T->lanes   = PetscMin(PPE_TILEILU_SZ, T->ntiles);
  T->ngroups = (T->ntiles + T->lanes - 1) / T->lanes;
  T->chunk   = 1;
  if (T->nt[0] % T->lanes == 0)
    for (long n = T->nt[0] / T->lanes; n > 1; n--)
      if ((T->nt[0] / T->lanes) % n == 0 && (size_t)n * npos * T->lanes * sizeof(double) <= ((size_t)1 << 20)) {
        T->chunk = n;
        break;
      }
}

/* A random factor of kind k: small multipliers and couplings, inverse pivots about 1. */
static double TileFactor(PetscInt k, PetscBool sym)
{
  return k == (sym ? PPE_TILEILU_DINV_SYM : PPE_TILEILU_DINV) ? Uniform(0.8, 1.2) : Uniform(-0.25, 0.05);
}

static PetscErrorCode CheckTileCase(Dev *D, const PetscInt box[3], const PetscInt req[3], PetscBool sym)
{
  const PPEBackendOps *H = &PPEBackendOps_Host;
  ppe_dev_tiles        T;
  size_t               nloc, nfx, nfz, nv;
  double              *Fx, *Fz, *r, *z0, *zh, *zb, *v0, *vh, *vb;
  double              *dFx, *dFz, *dr, *dz, *dv;
  char                 tag[160];
  PetscBool            same;
  double               diff;

  PetscFunctionBegin;
  TileSetUp(&T, box, req, sym);
  nloc = (size_t)T.nloc;
  nfx  = (size_t)T.nc * nloc;
  nv   = (size_t)T.ngroups * T.tile[0] * T.tile[1] * T.tile[2] * T.lanes;
  nfz  = nv * T.nc;
  PetscCall(PetscSNPrintf(tag, sizeof(tag), "box %ldx%ldx%ld, tiles %ldx%ldx%ld (%ld tiles; %ld x %ld lanes), %s", T.box[0], T.box[1], T.box[2], T.tile[0], T.tile[1], T.tile[2], T.ntiles, T.ngroups, T.lanes, sym ? "symmetric" : "general"));
  PetscCall(PetscMalloc5(nfx, &Fx, nfz, &Fz, nloc, &r, nloc, &z0, nloc, &zh));
  PetscCall(PetscMalloc4(nloc, &zb, nv, &v0, nv, &vh, nv, &vb));
  for (size_t i = 0; i < nfx; i++) Fx[i] = TileFactor((PetscInt)(i / nloc), sym);             /* [kind][nloc] */
  for (size_t i = 0; i < nfz; i++) Fz[i] = TileFactor((PetscInt)((i / T.lanes) % T.nc), sym); /* [g][q][kind][lane] */
  Fill(r, nloc, -1.0, 1.0);
  Fill(z0, nloc, -5.0, 5.0);
  Fill(v0, nv, -5.0, 5.0);
  PetscCall(Upload(D, Fx, nfx, &dFx));
  PetscCall(Upload(D, Fz, nfz, &dFz));
  PetscCall(Upload(D, r, nloc, &dr));
  PetscCall(Upload(D, z0, nloc, &dz));
  PetscCall(Upload(D, v0, nv, &dv));

  /* xyz: one thread per tile */
  PetscCall(PetscArraycpy(zh, z0, nloc));
  DEVCALL(D, H->tileilu_xyz(&T, Fx, r, zh, NULL));
  DEVCALL(D, D->ops->tileilu_xyz(&T, dFx, dr, dz, D->stream));
  PetscCall(Download(D, dz, nloc, zb));
  diff = 0.0;
  same = SameBits(zb, zh, nloc, &diff);
  PetscCall(TapCheck(PETSC_COMM_WORLD, same, "tileilu %s: xyz sweeps %s bitwise equal to the host's, max |diff| %.1e", tag, D->ops->name, diff));

  /* zyx, three passes; each launch starts from the host's input of that pass */
  PetscCall(PetscArraycpy(vh, v0, nv));
  DEVCALL(D, H->tileilu_gather(&T, r, vh, NULL));
  DEVCALL(D, D->ops->tileilu_gather(&T, dr, dv, D->stream));
  PetscCall(Download(D, dv, nv, vb));
  diff = 0.0;
  same = SameBits(vb, vh, nv, &diff);
  PetscCall(TapCheck(PETSC_COMM_WORLD, same, "tileilu %s: zyx gather %s bitwise equal to the host's, max |diff| %.1e", tag, D->ops->name, diff));

  DEVCALL(D, D->ops->copy(dv, vh, nv * sizeof(double), PPE_DEV_H2D, D->stream));
  DEVCALL(D, D->ops->sync(D->stream)); /* vh is swept in place below */
  DEVCALL(D, H->tileilu_zyx(&T, Fz, vh, NULL));
  DEVCALL(D, D->ops->tileilu_zyx(&T, dFz, dv, D->stream));
  PetscCall(Download(D, dv, nv, vb));
  diff = 0.0;
  same = SameBits(vb, vh, nv, &diff);
  PetscCall(TapCheck(PETSC_COMM_WORLD, same, "tileilu %s: zyx sweeps %s bitwise equal to the host's, max |diff| %.1e", tag, D->ops->name, diff));

  DEVCALL(D, D->ops->copy(dv, vh, nv * sizeof(double), PPE_DEV_H2D, D->stream));
  DEVCALL(D, D->ops->copy(dz, z0, nloc * sizeof(double), PPE_DEV_H2D, D->stream));
  DEVCALL(D, D->ops->sync(D->stream));
  PetscCall(PetscArraycpy(zh, z0, nloc));
  DEVCALL(D, H->tileilu_scatter(&T, vh, zh, NULL));
  DEVCALL(D, D->ops->tileilu_scatter(&T, dv, dz, D->stream));
  PetscCall(Download(D, dz, nloc, zb));
  diff = 0.0;
  same = SameBits(zb, zh, nloc, &diff);
  PetscCall(TapCheck(PETSC_COMM_WORLD, same, "tileilu %s: zyx scatter %s bitwise equal to the host's, max |diff| %.1e", tag, D->ops->name, diff));

  /* the host's fused apply (chunk by chunk through a one-chunk buffer) against its three
     passes above: gather, sweeps, scatter */
  if (H->tileilu_fused) {
    double *vc, *zf;

    PetscCall(PetscMalloc2((size_t)T.chunk * T.tile[0] * T.tile[1] * T.tile[2] * T.lanes, &vc, nloc, &zf));
    PetscCall(PetscArraycpy(zf, z0, nloc));
    DEVCALL(D, H->tileilu_fused(&T, Fz, r, vc, zf, NULL));
    diff = 0.0;
    same = SameBits(zf, zh, nloc, &diff);
    PetscCall(TapCheck(PETSC_COMM_WORLD, same, "tileilu %s: the host's fused zyx apply (chunks of %ld groups) bitwise equal to its gather, sweeps and scatter, max |diff| %.1e", tag, T.chunk, diff));
    PetscCall(PetscFree2(vc, zf));
  }

  DEVCALL(D, D->ops->release(dFx));
  DEVCALL(D, D->ops->release(dFz));
  DEVCALL(D, D->ops->release(dr));
  DEVCALL(D, D->ops->release(dz));
  DEVCALL(D, D->ops->release(dv));
  PetscCall(PetscFree5(Fx, Fz, r, z0, zh));
  PetscCall(PetscFree4(zb, v0, vh, vb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckTileILU(Dev *D)
{
  /* boxes and requested tile shapes: edge tiles in x and y; fewer tiles than lanes (4 tiles,
     the request clamped to the box); 32 tiles, chunks of 2 groups and partial tile rows;
     z lines (36 tiles, a last group of 4) */
  const PetscInt boxes[4][3] = {
    {7,  5, 4},
    {5,  3, 2},
    {32, 3, 2},
    {9,  4, 3}
  };
  const PetscInt tiles[4][3] = {
    {3, 2, 4},
    {4, 4, 1},
    {2, 2, 2},
    {1, 1, 3}
  };

  PetscFunctionBegin;
  for (int c = 0; c < 4; c++)
    for (int s = 0; s < 2; s++) PetscCall(CheckTileCase(D, boxes[c], tiles[c], (PetscBool)(s == 0)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char name[16] = "emu";
  Dev  D;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ppe_backend", name, sizeof(name), NULL));
  PetscCall(PPEBackendOpen(name, &D.ops));
  DEVCALL(&D, D.ops->stream_create(&D.stream));
  PetscCall(CheckTridiag(&D));
  PetscCall(CheckTileILU(&D));
  DEVCALL(&D, D.ops->stream_destroy(D.stream));
  PetscCall(PetscFinalize());
  return tap_failures ? 1 : 0;
}
