/*
   Host back end of the tile ILU(0) sweeps (src/kernels/tileilu.h).

   xyz: one tile after the other, each swept in place in the vector's order: a chain of
        dependent points (every point waits for its west neighbour), as PETSc's ILU is.
   zyx: the lanes of a group (PPE_TILEILU_SZ tiles) are independent and contiguous, so every
        position is one SIMD operation over the lanes. Gather and scatter move the values
        between the vector's order and the packed groups, one tile row (contiguous in the
        vector) at a time. Either as three passes over the box (each timed by its own event),
        or fused group by group: gather a group into a buffer that stays in the L1 cache,
        sweep forward and backward, scatter (no packed copy of the vector goes to memory).
   The group loops are compiled twice, generic and AVX2, and the AVX2 instance is chosen at
   run time when the CPU has it, as for the stencil. These are the host's entries of the
   back-end table (host.h): the tiling T as every back end gets it (ppe_dev_tiles), arrays in
   host memory.
*/
#include <backend/host/host.h>
#include "simd.h"

/* GCC/clang vector type of half a zyx group (4 lanes), loaded from 8-byte aligned data */
#if defined(__GNUC__) && PPE_TILEILU_SZ == 8
  #define PPE_HAVE_VECTOR_EXT 1
typedef double ppe_v4d __attribute__((vector_size(32), aligned(8)));
#else
  #define PPE_HAVE_VECTOR_EXT 0
#endif

int PPEHostTileILUXYZ(const ppe_dev_tiles *T, const double *F, const double *r, double *z, void *stream)
{
  const long sy = T->box[0], sz = T->box[0] * T->box[1];

  (void)stream;
  for (long tc = 0; tc < T->nt[2]; tc++)
    for (long tb = 0; tb < T->nt[1]; tb++)
      for (long ta = 0; ta < T->nt[0]; ta++) {
        long o[3] = {ta * T->tile[0], tb * T->tile[1], tc * T->tile[2]}, e[3];
        for (int d = 0; d < 3; d++) e[d] = PetscMin(T->tile[d], T->box[d] - o[d]);
        if (T->sym) ppe_tileilu_tile_xyz(F, 1, T->nloc, sy, sz, o[0] + sy * o[1] + sz * o[2], e[0], e[1], e[2], r, z);
        else ppe_tileilu_tile_xyz(F, 0, T->nloc, sy, sz, o[0] + sy * o[1] + sz * o[2], e[0], e[1], e[2], r, z);
      }
  return 0;
}

/* Points of a full tile. */
PPE_HOST_INLINE long NPos(const ppe_dev_tiles *T)
{
  return T->tile[0] * T->tile[1] * T->tile[2];
}

/* Origins (index in the box) and extents of the lanes of group g; a zero extent for an
   empty lane. */
PPE_HOST_INLINE void LaneBoxes(const ppe_dev_tiles *T, PetscInt g, size_t o[], PetscInt e[][3])
{
  for (PetscInt l = 0; l < T->lanes; l++) {
    PetscInt t = g * T->lanes + l, ti[3], oo[3];

    o[l] = 0;
    if (t >= T->ntiles) {
      e[l][0] = e[l][1] = e[l][2] = 0;
      continue;
    }
    ti[0] = t % T->nt[0];
    ti[1] = (t / T->nt[0]) % T->nt[1];
    ti[2] = t / (T->nt[0] * T->nt[1]);
    for (int d = 0; d < 3; d++) {
      oo[d]   = ti[d] * T->tile[d];
      e[l][d] = PetscMin(T->tile[d], T->box[d] - oo[d]);
    }
    o[l] = (size_t)oo[0] + (size_t)T->box[0] * (oo[1] + (size_t)T->box[1] * oo[2]);
  }
}

/* Whether the lanes of a group are full tiles side by side along x (lane l starts tx points
   after lane l-1): then a tile row of the group is one contiguous stretch of L tx values. */
PPE_HOST_INLINE PetscBool Regular(const ppe_dev_tiles *T, const size_t o[], PetscInt e[][3])
{
  for (PetscInt l = 0; l < T->lanes; l++)
    if (e[l][0] != T->tile[0] || e[l][1] != T->tile[1] || e[l][2] != T->tile[2] || o[l] != o[0] + (size_t)l * T->tile[0]) return PETSC_FALSE;
  return PETSC_TRUE;
}

/*
   vg[q][l] = r at point q of lane l of group g; zero at padded points and in empty lanes.
   Row by row of the tiles: a regular group reads each row as one contiguous stretch and
   writes it transposed (for 1-point-wide tiles, a plain copy); otherwise lane by lane.
*/
PPE_HOST_INLINE void GatherGroup(const ppe_dev_tiles *T, PetscInt g, const double *r, double *vg)
{
  const PetscInt L = T->lanes, tx = T->tile[0], ty = T->tile[1], tz = T->tile[2];
  const size_t   sy = (size_t)T->box[0], sz = sy * T->box[1];
  size_t         o[PPE_TILEILU_SZ];
  PetscInt       e[PPE_TILEILU_SZ][3];

  LaneBoxes(T, g, o, e);
  if (Regular(T, o, e)) {
    for (PetscInt c = 0; c < tz; c++)
      for (PetscInt b = 0; b < ty; b++) {
        const double *rr   = r + o[0] + sy * b + sz * c;
        double       *vrow = vg + ((size_t)tx * (b + (size_t)ty * c)) * L;
        for (PetscInt a = 0; a < tx; a++)
          for (PetscInt l = 0; l < L; l++) vrow[(size_t)a * L + l] = rr[(size_t)l * tx + a];
      }
    return;
  }
  for (PetscInt c = 0; c < tz; c++)
    for (PetscInt b = 0; b < ty; b++) {
      double *vrow = vg + ((size_t)tx * (b + (size_t)ty * c)) * L;
      for (PetscInt l = 0; l < L; l++) {
        double  *vq = vrow + l;
        PetscInt a  = 0;
        if (c < e[l][2] && b < e[l][1]) {
          const double *rr = r + o[l] + sy * b + sz * c;
          for (; a < e[l][0]; a++) vq[(size_t)a * L] = rr[a];
        }
        for (; a < tx; a++) vq[(size_t)a * L] = 0.0;
      }
    }
}

/* z at the points of the tiles of group g = vg, in the same order as the gather. */
PPE_HOST_INLINE void ScatterGroup(const ppe_dev_tiles *T, PetscInt g, const double *vg, double *z)
{
  const PetscInt L = T->lanes, tx = T->tile[0], ty = T->tile[1], tz = T->tile[2];
  const size_t   sy = (size_t)T->box[0], sz = sy * T->box[1];
  size_t         o[PPE_TILEILU_SZ];
  PetscInt       e[PPE_TILEILU_SZ][3];

  LaneBoxes(T, g, o, e);
  if (Regular(T, o, e)) {
    for (PetscInt c = 0; c < tz; c++)
      for (PetscInt b = 0; b < ty; b++) {
        double       *zz   = z + o[0] + sy * b + sz * c;
        const double *vrow = vg + ((size_t)tx * (b + (size_t)ty * c)) * L;
        for (PetscInt l = 0; l < L; l++)
          for (PetscInt a = 0; a < tx; a++) zz[(size_t)l * tx + a] = vrow[(size_t)a * L + l];
      }
    return;
  }
  for (PetscInt c = 0; c < tz; c++)
    for (PetscInt b = 0; b < ty; b++) {
      const double *vrow = vg + ((size_t)tx * (b + (size_t)ty * c)) * L;
      for (PetscInt l = 0; l < L; l++) {
        const double *vq = vrow + l;
        if (c < e[l][2] && b < e[l][1]) {
          double *zz = z + o[l] + sy * b + sz * c;
          for (PetscInt a = 0; a < e[l][0]; a++) zz[a] = vq[(size_t)a * L];
        }
      }
    }
}

/*
   A chunk: T->chunk consecutive groups of one tile row (set up only when the groups are whole
   tile rows). When all its tiles are full, every row of points of the chunk is one
   contiguous stretch of the vector, read (written) once in address order: tiles one point
   wide (z lines) would otherwise touch one cache line per position and page.
*/
PPE_HOST_INLINE PetscBool ChunkRegular(const ppe_dev_tiles *T, PetscInt g0, size_t *o0)
{
  size_t   o[PPE_TILEILU_SZ], start = 0;
  PetscInt e[PPE_TILEILU_SZ][3];

  for (PetscInt g = g0; g < g0 + T->chunk; g++) {
    LaneBoxes(T, g, o, e);
    if (!Regular(T, o, e) || (g > g0 && o[0] != start + (size_t)(g - g0) * T->lanes * T->tile[0])) return PETSC_FALSE;
    if (g == g0) start = o[0];
  }
  *o0 = start;
  return PETSC_TRUE;
}

PPE_HOST_INLINE void GatherChunk(const ppe_dev_tiles *T, PetscInt g0, const double *r, double *v)
{
  const PetscInt L = T->lanes, tx = T->tile[0], ty = T->tile[1], tz = T->tile[2], n = T->chunk;
  const size_t   sy = (size_t)T->box[0], sz = sy * T->box[1], gs = (size_t)NPos(T) * L;
  size_t         o0;

  if (n > 1 && ChunkRegular(T, g0, &o0)) {
    for (PetscInt c = 0; c < tz; c++)
      for (PetscInt b = 0; b < ty; b++) {
        const double *rr = r + o0 + sy * b + sz * c;
        for (PetscInt g = 0; g < n; g++) {
          double       *vrow = v + g * gs + ((size_t)tx * (b + (size_t)ty * c)) * L;
          const double *rg   = rr + (size_t)g * L * tx;
          for (PetscInt a = 0; a < tx; a++)
            for (PetscInt l = 0; l < L; l++) vrow[(size_t)a * L + l] = rg[(size_t)l * tx + a];
        }
      }
    return;
  }
  for (PetscInt g = 0; g < n && g0 + g < T->ngroups; g++) GatherGroup(T, g0 + g, r, v + g * gs);
}

PPE_HOST_INLINE void ScatterChunk(const ppe_dev_tiles *T, PetscInt g0, const double *v, double *z)
{
  const PetscInt L = T->lanes, tx = T->tile[0], ty = T->tile[1], tz = T->tile[2], n = T->chunk;
  const size_t   sy = (size_t)T->box[0], sz = sy * T->box[1], gs = (size_t)NPos(T) * L;
  size_t         o0;

  if (n > 1 && ChunkRegular(T, g0, &o0)) {
    for (PetscInt c = 0; c < tz; c++)
      for (PetscInt b = 0; b < ty; b++) {
        double *zz = z + o0 + sy * b + sz * c;
        for (PetscInt g = 0; g < n; g++) {
          const double *vrow = v + g * gs + ((size_t)tx * (b + (size_t)ty * c)) * L;
          double       *zg   = zz + (size_t)g * L * tx;
          for (PetscInt l = 0; l < L; l++)
            for (PetscInt a = 0; a < tx; a++) zg[(size_t)l * tx + a] = vrow[(size_t)a * L + l];
        }
      }
    return;
  }
  for (PetscInt g = 0; g < n && g0 + g < T->ngroups; g++) ScatterGroup(T, g0 + g, v + g * gs, z);
}

int PPEHostTileILUGather(const ppe_dev_tiles *T, const double *r, double *v, void *stream)
{
  (void)stream;
  for (long g = 0; g < T->ngroups; g += T->chunk) GatherChunk(T, (PetscInt)g, r, v + (size_t)g * NPos(T) * T->lanes);
  return 0;
}

int PPEHostTileILUScatter(const ppe_dev_tiles *T, const double *v, double *z, void *stream)
{
  (void)stream;
  for (long g = 0; g < T->ngroups; g += T->chunk) ScatterChunk(T, (PetscInt)g, v + (size_t)g * NPos(T) * T->lanes, z);
  return 0;
}

/* The group loops (tileilu_host_body.h), generic and AVX2. */
#define PPE_HOST_BODY "tileilu_host_body.h"
#include "simd_instances.h"

int PPEHostTileILUZYX(const ppe_dev_tiles *T, const double *F, double *v, void *stream)
{
  (void)stream;
  PPE_HOST_DISPATCH(PPEHostHasAVX2(), SweepZYX, (T, F, v));
  return 0;
}

int PPEHostTileILUFused(const ppe_dev_tiles *T, const double *F, const double *r, double *v, double *z, void *stream)
{
  (void)stream;
  PPE_HOST_DISPATCH(PPEHostHasAVX2(), ApplyZYXFused, (T, F, r, v, z));
  return 0;
}
