/*
   Host back end of the tile ILU(0) sweeps (src/kernels/tileilu.h).

   xyz: one tile after the other, each swept in place in the vector's order: a chain of
        dependent points (every point waits for its west neighbour), as PETSc's ILU is.
   zyx: the lanes of a group (PPE_TILEILU_SZ tiles) are independent and contiguous, so the
        lane loop of every position is a unit-stride SIMD loop; forward and backward sweeps
        of a group run back to back while its values are in the L1 cache. Gather and scatter
        move the values between the vector's order and the packed groups, one tile row
        (contiguous in the vector) at a time.
   The group loops are compiled twice, generic and AVX2, and the AVX2 instance is chosen at
   run time when the CPU has it, as for the stencil.
*/
#include <ppekit/private/tileiluimpl.h>
#include <ppekit/private/stencilimpl.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(PPE_NO_AVX2)
  #define PPE_HAVE_AVX2_TILES 1
#else
  #define PPE_HAVE_AVX2_TILES 0
#endif
#if defined(__GNUC__)
  #define PPE_INLINE static inline __attribute__((always_inline))
#else
  #define PPE_INLINE static inline
#endif

void PPETileILUSweepXYZ_Host(const PPETileILU *T, const double *F, const double *r, double *z)
{
  const long sy = T->box[0], sz = (long)T->box[0] * T->box[1];

  for (PetscInt tc = 0; tc < T->nt[2]; tc++)
    for (PetscInt tb = 0; tb < T->nt[1]; tb++)
      for (PetscInt ta = 0; ta < T->nt[0]; ta++) {
        long o[3] = {ta * T->tile[0], tb * T->tile[1], tc * T->tile[2]}, e[3];
        for (int d = 0; d < 3; d++) e[d] = PetscMin(T->tile[d], T->box[d] - o[d]);
        ppe_tileilu_tile_xyz(F, T->nloc, sy, sz, o[0] + sy * o[1] + sz * o[2], e[0], e[1], e[2], r, z);
      }
}

/* Gather: v[g][q][l] = r at point q of tile g lanes + l; zero at padded points and empty lanes. */
void PPETileILUGather_Host(const PPETileILU *T, const double *r)
{
  const PetscInt L = T->lanes, tx = T->tile[0], ty = T->tile[1], tz = T->tile[2];
  const size_t   sy = (size_t)T->box[0], sz = sy * T->box[1];

  for (PetscInt g = 0; g < T->ngroups; g++) {
    double *vg = T->v + (size_t)g * T->npos * L;
    for (PetscInt l = 0; l < L; l++) {
      PetscInt t = g * L + l, ti[3], o[3] = {0, 0, 0}, e[3] = {0, 0, 0};

      if (t < T->ntiles) {
        ti[0] = t % T->nt[0];
        ti[1] = (t / T->nt[0]) % T->nt[1];
        ti[2] = t / (T->nt[0] * T->nt[1]);
        for (int d = 0; d < 3; d++) {
          o[d] = ti[d] * T->tile[d];
          e[d] = PetscMin(T->tile[d], T->box[d] - o[d]);
        }
      }
      for (PetscInt c = 0; c < tz; c++)
        for (PetscInt b = 0; b < ty; b++) {
          double  *vq = vg + ((size_t)tx * (b + (size_t)ty * c)) * L + l;
          PetscInt a  = 0;
          if (c < e[2] && b < e[1]) {
            const double *rr = r + (size_t)o[0] + sy * (o[1] + b) + sz * (o[2] + c);
            for (; a < e[0]; a++) vq[(size_t)a * L] = rr[a];
          }
          for (; a < tx; a++) vq[(size_t)a * L] = 0.0;
        }
    }
  }
}

void PPETileILUScatter_Host(const PPETileILU *T, double *z)
{
  const PetscInt L = T->lanes, tx = T->tile[0], ty = T->tile[1];
  const size_t   sy = (size_t)T->box[0], sz = sy * T->box[1];

  for (PetscInt g = 0; g < T->ngroups; g++) {
    const double *vg = T->v + (size_t)g * T->npos * L;
    for (PetscInt l = 0; l < L && g * L + l < T->ntiles; l++) {
      PetscInt t = g * L + l, ti[3] = {t % T->nt[0], (t / T->nt[0]) % T->nt[1], t / (T->nt[0] * T->nt[1])}, o[3], e[3];

      for (int d = 0; d < 3; d++) {
        o[d] = ti[d] * T->tile[d];
        e[d] = PetscMin(T->tile[d], T->box[d] - o[d]);
      }
      for (PetscInt c = 0; c < e[2]; c++)
        for (PetscInt b = 0; b < e[1]; b++) {
          const double *vq = vg + ((size_t)tx * (b + (size_t)ty * c)) * L + l;
          double       *zz = z + (size_t)o[0] + sy * (o[1] + b) + sz * (o[2] + c);
          for (PetscInt a = 0; a < e[0]; a++) zz[a] = vq[(size_t)a * L];
        }
    }
  }
}

/* The generic instance, for any CPU. */
#define PPE_TILES_SUFFIX _Generic
#define PPE_TILES_TARGET
#include "tileilu_host_groups.h"
#undef PPE_TILES_SUFFIX
#undef PPE_TILES_TARGET

#if PPE_HAVE_AVX2_TILES
  #define PPE_TILES_SUFFIX _AVX2
  #define PPE_TILES_TARGET __attribute__((target("avx2")))
  #include "tileilu_host_groups.h"
  #undef PPE_TILES_SUFFIX
  #undef PPE_TILES_TARGET
#endif

void PPETileILUSweepZYX_Host(const PPETileILU *T, const double *F)
{
#if PPE_HAVE_AVX2_TILES
  if (PPEStencilHostHasAVX2()) {
    SweepZYX_AVX2(T, F);
    return;
  }
#endif
  SweepZYX_Generic(T, F);
}
