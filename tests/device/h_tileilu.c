/*
   Device harness, family tileilu: the four launchers of the tile ILU(0) sweeps
   (tileilu_xyz, tileilu_gather, tileilu_zyx, tileilu_scatter) against plain host loops
   that call the same single-source bodies of src/kernels/tileilu.h (ppe_tileilu_tile_xyz,
   ppe_tileilu_lane_zyx) in the host's natural order. The preconditioner is the tile
   (block-Jacobi) ILU of Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU
   acceleration of communication avoiding Chebyshev basis conjugate gradient solver for
   multiphase CFD simulations", ScalA workshop at SC19, 2019.

   Checks (all bitwise: the bodies promise the same bits on every back end, and the kernels
   are compiled without contraction on both sides):
     - xyz sweeps, symmetric and general factor storage;
     - gather r -> v (into a v full of other values: the padded points and the empty lanes
       must be written as 0.0);
     - zyx sweeps of v, symmetric and general, on the gathered values with factors packed as
       the library packs them (zero at padded points and in empty lanes), and on random
       values with random factors everywhere (so that a lane reading its neighbour's values
       or factors shows);
     - scatter v -> z (into a z full of other values);
     - the whole zyx path, gather, zyx sweeps, scatter, against the host's xyz sweeps: the
       bodies document that both layouts give the same bits when the factors are those of
       the library (couplings leaving a tile are zero).
   The cases are those of the PETSc-based device test of the tile ILU (edge tiles in x and
   y, fewer tiles than lanes, chunks of groups, z lines), plus the library's default tile
   shape 8 x 8 x 32 clamped to a smaller box, with edge tiles in all three directions and
   with full tiles only, and a box of 1254 small tiles so that every launcher runs several
   thread blocks of PPE_DEV_BLOCK threads. The factors are synthetic: multipliers and
   scaled couplings in [-0.25, 0.05] and inverse pivots in [0.8, 1.2], so that every sweep
   is bounded (the couplings of a point sum to at most 0.75 in magnitude).

   Timings (default tile 8 x 8 x 32, the library's PCTileILUDefaultTile): 256^3 and 512^3
   points on a GPU (at 512^3 the factors of general storage, r, z and v take 10 vectors of
   1 GiB, under the harness's 20 GiB), 32^3 and 48^3 in emulation (48 is not a multiple of
   the tile height 32, so the padded sizes of the packed layout run in CI). At both sizes:
   the xyz sweeps and the three launches of the zyx path (symmetric storage, the common
   case of a pressure Poisson operator); at the larger size also the xyz sweeps with general
   storage and gather, zyx sweeps and scatter one by one.
*/
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The library's default tile shape (PCTileILUDefaultTile). */
static const long h_ti_default_tile[3] = {8, 8, 32};

/* The tiling of a box as the library's set-up makes it: the requested shape clamped to the
   box, lanes = min(PPE_TILEILU_SZ, tiles), groups of lanes tiles (the last one may have
   empty lanes). */
static void TilesSetUp(ppe_dev_tiles *T, const long box[3], const long req[3], int sym)
{
  memset(T, 0, sizeof(*T));
  T->sym    = sym;
  T->ntiles = 1;
  for (int d = 0; d < 3; d++) {
    T->box[d]  = box[d];
    T->tile[d] = req[d] < box[d] ? req[d] : box[d];
    T->nt[d]   = (box[d] + T->tile[d] - 1) / T->tile[d];
    T->ntiles *= T->nt[d];
  }
  T->nloc    = box[0] * box[1] * box[2];
  T->lanes   = T->ntiles < PPE_TILEILU_SZ ? T->ntiles : PPE_TILEILU_SZ;
  T->ngroups = (T->ntiles + T->lanes - 1) / T->lanes;
  T->nc      = sym ? PPE_TILEILU_NCOEF_SYM : PPE_TILEILU_NCOEF;
}

static size_t NPos(const ppe_dev_tiles *T)
{
  return (size_t)T->tile[0] * (size_t)T->tile[1] * (size_t)T->tile[2];
}

/* Packed values of every group (padded points and empty lanes included). */
static size_t NV(const ppe_dev_tiles *T)
{
  return (size_t)T->ngroups * NPos(T) * (size_t)T->lanes;
}

/* Index in the box of the first point of tile t and its extent e (smaller at the far ends). */
static size_t TileBox(const ppe_dev_tiles *T, long t, long e[3])
{
  long i[3] = {t % T->nt[0], (t / T->nt[0]) % T->nt[1], t / (T->nt[0] * T->nt[1])}, o[3];

  for (int d = 0; d < 3; d++) {
    o[d] = i[d] * T->tile[d];
    e[d] = T->box[d] - o[d] < T->tile[d] ? T->box[d] - o[d] : T->tile[d];
  }
  return (size_t)o[0] + (size_t)T->box[0] * ((size_t)o[1] + (size_t)T->box[1] * (size_t)o[2]);
}

/* Index of value (position q, lane of tile t) in the packed layout v[g][q][lane]. */
static size_t PackedIndex(const ppe_dev_tiles *T, long t, size_t q)
{
  size_t g = (size_t)(t / T->lanes), l = (size_t)(t % T->lanes);

  return (g * NPos(T) + q) * (size_t)T->lanes + l;
}

/*
   Synthetic factors of general storage in the xyz layout, F7[kind nloc + p], shaped like the
   library's: in each tile the multiplier of a neighbour outside the tile is zero (west at
   a = 0, ...), and so is the scaled coupling of an upper neighbour outside it.
*/
static void MakeFactors(const ppe_dev_tiles *T, double *F7)
{
  const size_t n = (size_t)T->nloc, sy = (size_t)T->box[0], sz = sy * (size_t)T->box[1];

  for (long t = 0; t < T->ntiles; t++) {
    long   e[3];
    size_t p0 = TileBox(T, t, e);
    for (long c = 0; c < e[2]; c++)
      for (long b = 0; b < e[1]; b++)
        for (long a = 0; a < e[0]; a++) {
          size_t p                     = p0 + (size_t)a + sy * (size_t)b + sz * (size_t)c;
          F7[PPE_TILEILU_LW * n + p]   = a > 0 ? HUniform(-0.25, 0.05) : 0.0;
          F7[PPE_TILEILU_LS * n + p]   = b > 0 ? HUniform(-0.25, 0.05) : 0.0;
          F7[PPE_TILEILU_LB * n + p]   = c > 0 ? HUniform(-0.25, 0.05) : 0.0;
          F7[PPE_TILEILU_UE * n + p]   = a < e[0] - 1 ? HUniform(-0.25, 0.05) : 0.0;
          F7[PPE_TILEILU_UN * n + p]   = b < e[1] - 1 ? HUniform(-0.25, 0.05) : 0.0;
          F7[PPE_TILEILU_UT * n + p]   = c < e[2] - 1 ? HUniform(-0.25, 0.05) : 0.0;
          F7[PPE_TILEILU_DINV * n + p] = HUniform(0.8, 1.2);
        }
  }
}

/* The kind of the general storage that stored kind k comes from (symmetric storage keeps
   the three multipliers and the inverse pivot). */
static int KindSource(const ppe_dev_tiles *T, int k)
{
  return (T->sym && k == PPE_TILEILU_DINV_SYM) ? PPE_TILEILU_DINV : k;
}

/* The stored kinds in the xyz layout: Fx[k nloc + p], k < nc. */
static void StoreXYZ(const ppe_dev_tiles *T, const double *F7, double *Fx)
{
  const size_t n = (size_t)T->nloc;

  for (int k = 0; k < (int)T->nc; k++) memcpy(Fx + (size_t)k * n, F7 + (size_t)KindSource(T, k) * n, n * sizeof(double));
}

/* The stored kinds packed as the library packs them, Fz[g][q][kind][lane]: zero at padded
   points and in empty lanes. */
static void StoreZYX(const ppe_dev_tiles *T, const double *F7, double *Fz)
{
  const size_t n = (size_t)T->nloc, sy = (size_t)T->box[0], sz = sy * (size_t)T->box[1], nc = (size_t)T->nc, L = (size_t)T->lanes;

  memset(Fz, 0, NV(T) * nc * sizeof(double));
  for (long t = 0; t < T->ntiles; t++) {
    long   e[3];
    size_t p0 = TileBox(T, t, e), g = (size_t)(t / T->lanes), l = (size_t)(t % T->lanes);
    for (long c = 0; c < e[2]; c++)
      for (long b = 0; b < e[1]; b++)
        for (long a = 0; a < e[0]; a++) {
          size_t p = p0 + (size_t)a + sy * (size_t)b + sz * (size_t)c;
          size_t q = (size_t)a + (size_t)T->tile[0] * ((size_t)b + (size_t)T->tile[1] * (size_t)c);
          for (size_t k = 0; k < nc; k++) Fz[((g * NPos(T) + q) * nc + k) * L + l] = F7[(size_t)KindSource(T, (int)k) * n + p];
        }
  }
}

/* Random factors at every packed place, padded points and empty lanes included. */
static void RandomZYX(const ppe_dev_tiles *T, double *Fz)
{
  const size_t nf = NV(T) * (size_t)T->nc;
  const long   kd = T->sym ? PPE_TILEILU_DINV_SYM : PPE_TILEILU_DINV;

  for (size_t i = 0; i < nf; i++) Fz[i] = (long)((i / (size_t)T->lanes) % (size_t)T->nc) == kd ? HUniform(0.8, 1.2) : HUniform(-0.25, 0.05);
}

/* ------------------------------------------------------------ host references */

/* z = M^-1 r, xyz layout: the tiles one after the other, as the host back end does. */
static void RefXYZ(const ppe_dev_tiles *T, const double *Fx, const double *r, double *z)
{
  const long sy = T->box[0], sz = T->box[0] * T->box[1];

  for (long t = 0; t < T->ntiles; t++) {
    long   e[3];
    size_t p0 = TileBox(T, t, e);
    ppe_tileilu_tile_xyz(Fx, T->sym, T->nloc, sy, sz, (long)p0, e[0], e[1], e[2], r, z);
  }
}

/* v[g][q][lane] = r at point q of the lane's tile; 0.0 at padded points and in empty lanes. */
static void RefGather(const ppe_dev_tiles *T, const double *r, double *v)
{
  const size_t sy = (size_t)T->box[0], sz = sy * (size_t)T->box[1];

  for (long t = 0; t < T->ngroups * T->lanes; t++) {
    long   e[3] = {0, 0, 0};
    size_t p0 = t < T->ntiles ? TileBox(T, t, e) : 0, q = 0;
    for (long c = 0; c < T->tile[2]; c++)
      for (long b = 0; b < T->tile[1]; b++)
        for (long a = 0; a < T->tile[0]; a++, q++) v[PackedIndex(T, t, q)] = (a < e[0] && b < e[1] && c < e[2]) ? r[p0 + (size_t)a + sy * (size_t)b + sz * (size_t)c] : 0.0;
  }
}

/* The zyx sweeps of every lane of every group, in place on v. */
static void RefZYX(const ppe_dev_tiles *T, const double *Fz, double *v)
{
  const size_t nf = NPos(T) * (size_t)T->nc * (size_t)T->lanes, nv = NPos(T) * (size_t)T->lanes;

  for (long g = 0; g < T->ngroups; g++)
    for (long l = 0; l < T->lanes; l++) ppe_tileilu_lane_zyx(Fz + (size_t)g * nf, T->sym, T->lanes, l, T->tile[0], T->tile[1], T->tile[2], v + (size_t)g * nv);
}

/* z at the real points of every tile = v. */
static void RefScatter(const ppe_dev_tiles *T, const double *v, double *z)
{
  const size_t sy = (size_t)T->box[0], sz = sy * (size_t)T->box[1];

  for (long t = 0; t < T->ntiles; t++) {
    long   e[3];
    size_t p0 = TileBox(T, t, e);
    for (long c = 0; c < e[2]; c++)
      for (long b = 0; b < e[1]; b++)
        for (long a = 0; a < e[0]; a++) {
          size_t q                                            = (size_t)a + (size_t)T->tile[0] * ((size_t)b + (size_t)T->tile[1] * (size_t)c);
          z[p0 + (size_t)a + sy * (size_t)b + sz * (size_t)c] = v[PackedIndex(T, t, q)];
        }
  }
}

/* ------------------------------------------------------------ checks */

/* One check accumulated over the cases: whether all were bitwise equal, the largest
   difference, and the first failing case. */
typedef struct {
  int    ok, ncases;
  double diff;
  char   first[96];
} Acc;

static void AccAdd(Acc *A, int same, double diff, const char *tag)
{
  A->ncases++;
  if (diff > A->diff || diff != diff) A->diff = diff;
  if (!same && A->ok) snprintf(A->first, sizeof(A->first), "; first failure: %s", tag);
  if (!same) A->ok = 0;
}

/* Download n doubles of d and compare them bitwise with ref. */
static void Compare(Acc *A, const double *d, const double *ref, size_t n, double *buf, const char *tag)
{
  double diff = 0.0;
  int    same;

  HGet(buf, d, n);
  same = HBitwise(buf, ref, n, &diff);
  AccAdd(A, same, diff, tag);
}

enum {
  C_XYZ,
  C_GATHER,
  C_ZYX,
  C_SCATTER,
  C_PATH,
  C_N
};

/* The checks of one case and one storage; acc[C_N] for this storage. */
static void CheckCase(const long box[3], const long req[3], int sym, Acc acc[C_N])
{
  ppe_dev_tiles T;
  size_t        n, nv, nfx, nfz;
  double       *F7, *Fx, *Fz, *Fr, *r, *z0, *zx, *zh, *v0, *vh, *buf;
  double       *dFx, *dFz, *dFr, *dr, *dz, *dv;
  char          tag[96];

  TilesSetUp(&T, box, req, sym);
  n   = (size_t)T.nloc;
  nv  = NV(&T);
  nfx = (size_t)T.nc * n;
  nfz = (size_t)T.nc * nv;
  snprintf(tag, sizeof(tag), "box %ldx%ldx%ld tile %ldx%ldx%ld %s", T.box[0], T.box[1], T.box[2], T.tile[0], T.tile[1], T.tile[2], sym ? "sym" : "general");
  F7  = HMallocHost((size_t)PPE_TILEILU_NCOEF * n);
  Fx  = HMallocHost(nfx);
  Fz  = HMallocHost(nfz);
  Fr  = HMallocHost(nfz);
  r   = HMallocHost(n);
  z0  = HMallocHost(n);
  zx  = HMallocHost(n);
  zh  = HMallocHost(n);
  v0  = HMallocHost(nv);
  vh  = HMallocHost(nv);
  buf = HMallocHost(n > nv ? n : nv);
  MakeFactors(&T, F7);
  StoreXYZ(&T, F7, Fx);
  StoreZYX(&T, F7, Fz);
  RandomZYX(&T, Fr);
  HFill(r, n, -1.0, 1.0);
  HFill(z0, n, -5.0, 5.0); /* what z holds before a launch: every real point is written */
  HFill(v0, nv, -5.0, 5.0);
  dFx = HUpload(Fx, nfx);
  dFz = HUpload(Fz, nfz);
  dFr = HUpload(Fr, nfz);
  dr  = HUpload(r, n);
  dz  = HUpload(z0, n);
  dv  = HUpload(v0, nv);

  /* xyz: one thread per tile */
  memcpy(zx, z0, n * sizeof(double));
  RefXYZ(&T, Fx, r, zx);
  HCALL(H.ops->tileilu_xyz(&T, dFx, dr, dz, H.stream));
  Compare(&acc[C_XYZ], dz, zx, n, buf, tag);

  /* gather into v holding other values */
  memcpy(vh, v0, nv * sizeof(double));
  RefGather(&T, r, vh);
  HCALL(H.ops->tileilu_gather(&T, dr, dv, H.stream));
  Compare(&acc[C_GATHER], dv, vh, nv, buf, tag);

  /* zyx sweeps of the gathered values with the packed factors (the input is the host's
     gathered v, so this check does not depend on the gather's) */
  HPut(dv, vh, nv);
  RefZYX(&T, Fz, vh);
  HCALL(H.ops->tileilu_zyx(&T, dFz, dv, H.stream));
  Compare(&acc[C_ZYX], dv, vh, nv, buf, tag);
  /* and of random values with random factors at every place */
  HPut(dv, v0, nv);
  memcpy(vh, v0, nv * sizeof(double));
  RefZYX(&T, Fr, vh);
  HCALL(H.ops->tileilu_zyx(&T, dFr, dv, H.stream));
  Compare(&acc[C_ZYX], dv, vh, nv, buf, tag);

  /* scatter of those values (nonzero at padded points and in empty lanes, which must not
     reach z) into z holding other values */
  HPut(dv, vh, nv);
  HPut(dz, z0, n);
  memcpy(zh, z0, n * sizeof(double));
  RefScatter(&T, vh, zh);
  HCALL(H.ops->tileilu_scatter(&T, dv, dz, H.stream));
  Compare(&acc[C_SCATTER], dz, zh, n, buf, tag);

  /* the zyx path, all on the device, against the host's xyz sweeps */
  HPut(dv, v0, nv);
  HPut(dz, z0, n);
  HCALL(H.ops->tileilu_gather(&T, dr, dv, H.stream));
  HCALL(H.ops->tileilu_zyx(&T, dFz, dv, H.stream));
  HCALL(H.ops->tileilu_scatter(&T, dv, dz, H.stream));
  Compare(&acc[C_PATH], dz, zx, n, buf, tag);

  HFree(dFx);
  HFree(dFz);
  HFree(dFr);
  HFree(dr);
  HFree(dz);
  HFree(dv);
  free(F7);
  free(Fx);
  free(Fz);
  free(Fr);
  free(r);
  free(z0);
  free(zx);
  free(zh);
  free(v0);
  free(vh);
  free(buf);
}

static void Checks(void)
{
  /* boxes and requested tiles: edge tiles in x and y, 9 tiles (a last group of one tile and
     7 empty lanes); fewer tiles than lanes (4 tiles, the request clamped to the box); 32
     tiles (chunks of groups on the host); z lines (36 tiles, a last group of 4); the default
     tile clamped to a box smaller than it (one tile, one lane); the default tile with edge
     tiles in x, y and z (27 tiles, a last group with 5 empty lanes; 65536 packed values);
     the default tile with full tiles only (64 tiles); 1254 small tiles with edges in x and
     y (several thread blocks for every launcher, a last group with 2 empty lanes) */
  static const long boxes[][3] = {
    {7,  5,  4 },
    {5,  3,  2 },
    {32, 3,  2 },
    {9,  4,  3 },
    {5,  3,  2 },
    {20, 19, 70},
    {64, 32, 64},
    {37, 21, 18},
  };
  static const long reqs[][3] = {
    {3, 2, 4 },
    {4, 4, 1 },
    {2, 2, 2 },
    {1, 1, 3 },
    {8, 8, 32},
    {8, 8, 32},
    {8, 8, 32},
    {2, 2, 3 },
  };
  const int   ncase = (int)(sizeof(boxes) / sizeof(boxes[0]));
  const char *cases = "8 boxes (7x5x4/3x2x4, 5x3x2/4x4x1, 32x3x2/2x2x2, 9x4x3/1x1x3, 5x3x2/8x8x32, 20x19x70/8x8x32, 64x32x64/8x8x32, 37x21x18/2x2x3)";
  Acc         acc[2][C_N];

  memset(acc, 0, sizeof(acc));
  for (int s = 0; s < 2; s++)
    for (int k = 0; k < C_N; k++) acc[s][k].ok = 1;
  for (int s = 0; s < 2; s++)
    for (int c = 0; c < ncase; c++) CheckCase(boxes[c], reqs[c], s == 0, acc[s]);

  for (int s = 0; s < 2; s++) {
    const char *st = s == 0 ? "symmetric" : "general";
    Acc        *A  = acc[s];
    HCheck("tileilu_xyz", A[C_XYZ].ok, "%s, %s storage, z (prefilled) vs host loop over tiles of ppe_tileilu_tile_xyz, bitwise, max |diff| %.2e%s", cases, st, A[C_XYZ].diff, A[C_XYZ].first);
    HCheck("tileilu_zyx", A[C_ZYX].ok, "%s, %s storage, packed v vs host loop over lanes of ppe_tileilu_lane_zyx (gathered v with library-packed factors, and random v with random factors at padded points and empty lanes), bitwise, max |diff| %.2e%s",
           cases, st, A[C_ZYX].diff, A[C_ZYX].first);
    HCheck("tileilu_gather+zyx+scatter", A[C_PATH].ok, "%s, %s storage, the device's zyx path (3 launches) vs the host's xyz sweeps, bitwise (the layouts promise the same bits), max |diff| %.2e%s", cases, st, A[C_PATH].diff, A[C_PATH].first);
  }
  /* gather and scatter do not read the factors: one check each over both storages */
  for (int k = C_GATHER; k <= C_SCATTER; k += C_SCATTER - C_GATHER) {
    int    ok   = acc[0][k].ok && acc[1][k].ok;
    double diff = acc[0][k].diff > acc[1][k].diff ? acc[0][k].diff : acc[1][k].diff;
    if (k == C_GATHER) HCheck("tileilu_gather", ok, "%s, r -> packed v (prefilled: padded points and empty lanes must become 0.0) vs host loop, bitwise, max |diff| %.2e%s%s", cases, diff, acc[0][k].first, acc[1][k].first);
    else HCheck("tileilu_scatter", ok, "%s, packed v (nonzero at padded points and empty lanes) -> z (prefilled) vs host loop, bitwise, max |diff| %.2e%s%s", cases, diff, acc[0][k].first, acc[1][k].first);
  }
}

/* ------------------------------------------------------------ timings */

/* d[0..n) = the host chunk h[0..nh) repeated: one upload, then device copies that double
   the filled part (no point-by-point fill of gigabytes). */
static void DevFill(double *d, size_t n, const double *h, size_t nh)
{
  size_t k = n < nh ? n : nh;

  HPut(d, h, k);
  while (k < n) {
    size_t m = n - k < k ? n - k : k;
    HCALL(H.ops->copy(d + k, d, m * sizeof(double), PPE_DEV_D2D, H.stream));
    k += m;
  }
  HSync();
}

/* The zyx path as the library runs it on a device: three launches. */
static void PathZYX(const ppe_dev_tiles *T, const double *F, const double *r, double *v, double *z)
{
  HCALL(H.ops->tileilu_gather(T, r, v, H.stream));
  HCALL(H.ops->tileilu_zyx(T, F, v, H.stream));
  HCALL(H.ops->tileilu_scatter(T, v, z, H.stream));
}

/*
   Timings at m^3 points with the default tile. The factor values are a repeated random chunk
   in [-0.1, 0.1] (every kind, inverse pivots included): every sweep is a contraction (the
   couplings of a point sum to at most 0.3), so the repeated in-place zyx sweeps of the
   timing loop shrink v without overflow, and by far less than to subnormal numbers.
   Minimum bytes (8 per double; nloc points, nv packed values, nc stored kinds):
     xyz:     r read + z written + factors read         (2 + nc) nloc
     gather:  r read + v written                        nloc + nv
     zyx:     v read + v written + factors read         (2 + nc) nv
     scatter: v read + z written                        nv + nloc
     path:    the sum of the three launches             2 nloc + (4 + nc) nv
*/
static void TimeSize(long m, int all)
{
  const long    box[3] = {m, m, m};
  ppe_dev_tiles Ts, Tg;
  size_t        n, nv, nf, nh;
  double       *h, *dF, *dr, *dz, *dv, s;
  char          size[40];

  TilesSetUp(&Ts, box, h_ti_default_tile, 1);
  TilesSetUp(&Tg, box, h_ti_default_tile, 0);
  n  = (size_t)Ts.nloc;
  nv = NV(&Ts);
  nf = (size_t)PPE_TILEILU_NCOEF * (n > nv ? n : nv); /* either layout, either storage */
  nh = (size_t)1 << 20;
  h  = HMallocHost(nh);
  HFill(h, nh, -0.1, 0.1);
  dF = HAlloc(nf);
  dr = HAlloc(n);
  dz = HAlloc(n);
  dv = HAlloc(nv);
  DevFill(dF, nf, h, nh);
  DevFill(dr, n, h, nh);
  DevFill(dz, n, h, nh);
  DevFill(dv, nv, h, nh);

  snprintf(size, sizeof(size), "%ld^3 t8x8x32 sym", m);
  HTIME(s, HCALL(H.ops->tileilu_xyz(&Ts, dF, dr, dz, H.stream)));
  HTiming("tileilu_xyz", size, s, 8.0 * (2.0 + (double)Ts.nc) * (double)n, NULL, 0.0);
  HTIME(s, PathZYX(&Ts, dF, dr, dv, dz));
  HTiming("tileilu_gather+zyx+scatter", size, s, 8.0 * (2.0 * (double)n + (4.0 + (double)Ts.nc) * (double)nv), NULL, 0.0);
  if (all) {
    HTIME(s, HCALL(H.ops->tileilu_gather(&Ts, dr, dv, H.stream)));
    HTiming("tileilu_gather", size, s, 8.0 * ((double)n + (double)nv), NULL, 0.0);
    HTIME(s, HCALL(H.ops->tileilu_zyx(&Ts, dF, dv, H.stream)));
    HTiming("tileilu_zyx", size, s, 8.0 * (2.0 + (double)Ts.nc) * (double)nv, NULL, 0.0);
    HTIME(s, HCALL(H.ops->tileilu_scatter(&Ts, dv, dz, H.stream)));
    HTiming("tileilu_scatter", size, s, 8.0 * ((double)nv + (double)n), NULL, 0.0);
    snprintf(size, sizeof(size), "%ld^3 t8x8x32 general", m);
    HTIME(s, HCALL(H.ops->tileilu_xyz(&Tg, dF, dr, dz, H.stream)));
    HTiming("tileilu_xyz", size, s, 8.0 * (2.0 + (double)Tg.nc) * (double)n, NULL, 0.0);
  }
  HSync();
  HFree(dF);
  HFree(dr);
  HFree(dz);
  HFree(dv);
  free(h);
}

void HFamily_tileilu(void)
{
  Checks();
  if (H.emu) {
    TimeSize(32, 0);
    TimeSize(48, 1);
  } else {
    TimeSize(256, 0);
    TimeSize(512, 1);
  }
}
