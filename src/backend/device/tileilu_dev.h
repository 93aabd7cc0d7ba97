/*
   Device launchers of the tile ILU(0) sweeps (src/kernels/tileilu.h), in the layouts of
   src/tileilu/tileilu.c, matching the host back end (src/backend/host/tileilu_host.c):

     xyz:     one thread per tile, which sweeps the tile in place in the box order
              (ppe_tileilu_tile_xyz, the tile cut as PPETileILUSweepXYZ_Host cuts it);
     zyx:     one thread per lane (tile) of every group, ppe_tileilu_lane_zyx on the group's
              factors F[g][q][kind][lane] and values v[g][q][lane] (the three-pass layout: v
              holds every group); empty lanes are swept too, as the host's SIMD sweep does;
     gather:  one thread per packed value v[g][q][lane]: r at point q of the lane's tile, 0.0
              at a padded point or in an empty lane;
     scatter: one thread per packed value, written to z at the real points only.

   Tile t of the box is (t % nt[0], (t / nt[0]) % nt[1], t / (nt[0] nt[1])); lane l of group g
   is tile g lanes + l; position q of a tile is a + tx (b + ty c).
*/
#include "ops.h"

typedef struct {
  ppe_dev_tiles T;
  const double *F;  /* factors (xyz, zyx) */
  const double *r;  /* box values read (xyz, gather) */
  double       *z;  /* box values written (xyz, scatter) */
  double       *v;  /* packed values written (zyx, gather) */
  const double *vc; /* packed values read (scatter) */
} ppe_dev_ti_args;

/* Index in the box of the first point of tile ti, and its extent e (smaller at the ends). */
PPE_DEV_FN long ppe_dev_ti_tile(const ppe_dev_tiles *T, long ti, long e[3])
{
  long i[3], o[3];

  i[0] = ti % T->nt[0];
  i[1] = (ti / T->nt[0]) % T->nt[1];
  i[2] = ti / (T->nt[0] * T->nt[1]);
  for (int d = 0; d < 3; d++) {
    o[d] = i[d] * T->tile[d];
    e[d] = T->box[d] - o[d] < T->tile[d] ? T->box[d] - o[d] : T->tile[d];
  }
  return o[0] + T->box[0] * (o[1] + T->box[1] * o[2]);
}

/* The box index of packed value t (v[g][q][lane]), or -1 for a padded point or an empty lane. */
PPE_DEV_FN long ppe_dev_ti_point(const ppe_dev_tiles *T, long t)
{
  long tx = T->tile[0], ty = T->tile[1], npos = tx * ty * T->tile[2];
  long lane = t % T->lanes, q = (t / T->lanes) % npos, g = t / (T->lanes * npos), ti = g * T->lanes + lane;
  long a = q % tx, b = (q / tx) % ty, c = q / (tx * ty), e[3], p0;

  if (ti >= T->ntiles) return -1;
  p0 = ppe_dev_ti_tile(T, ti, e);
  if (a >= e[0] || b >= e[1] || c >= e[2]) return -1;
  return p0 + a + T->box[0] * (b + T->box[1] * c);
}

PPE_DEV_KERNEL(ppe_dev_ti_xyz, ppe_dev_ti_args)
{
  const ppe_dev_tiles *T = &a->T;
  long                 e[3], p0 = ppe_dev_ti_tile(T, t, e);

  ppe_tileilu_tile_xyz(a->F, T->sym, T->nloc, T->box[0], T->box[0] * T->box[1], p0, e[0], e[1], e[2], a->r, a->z);
}

PPE_DEV_KERNEL(ppe_dev_ti_zyx, ppe_dev_ti_args)
{
  const ppe_dev_tiles *T    = &a->T;
  long                 npos = T->tile[0] * T->tile[1] * T->tile[2], g = t / T->lanes, lane = t % T->lanes;

  ppe_tileilu_lane_zyx(a->F + g * npos * T->nc * T->lanes, T->sym, T->lanes, lane, T->tile[0], T->tile[1], T->tile[2], a->v + g * npos * T->lanes);
}

PPE_DEV_KERNEL(ppe_dev_ti_gather, ppe_dev_ti_args)
{
  long p = ppe_dev_ti_point(&a->T, t);

  a->v[t] = p >= 0 ? a->r[p] : 0.0;
}

PPE_DEV_KERNEL(ppe_dev_ti_scatter, ppe_dev_ti_args)
{
  long p = ppe_dev_ti_point(&a->T, t);

  if (p >= 0) a->z[p] = a->vc[t];
}

/* The packed values of all groups (host). */
static inline long ppe_dev_ti_nv(const ppe_dev_tiles *T)
{
  return T->ngroups * T->tile[0] * T->tile[1] * T->tile[2] * T->lanes;
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTileILUXYZ)(const ppe_dev_tiles *T, const double *F, const double *r, double *z, void *stream)
{
  ppe_dev_ti_args a;

  memset(&a, 0, sizeof(a));
  a.T = *T;
  a.F = F;
  a.r = r;
  a.z = z;
  PPE_DEV_LAUNCH(ppe_dev_ti_xyz, T->ntiles, stream, a);
  return 0;
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTileILUZYX)(const ppe_dev_tiles *T, const double *F, double *v, void *stream)
{
  ppe_dev_ti_args a;

  memset(&a, 0, sizeof(a));
  a.T = *T;
  a.F = F;
  a.v = v;
  PPE_DEV_LAUNCH(ppe_dev_ti_zyx, T->ngroups * T->lanes, stream, a);
  return 0;
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTileILUGather)(const ppe_dev_tiles *T, const double *r, double *v, void *stream)
{
  ppe_dev_ti_args a;

  memset(&a, 0, sizeof(a));
  a.T = *T;
  a.r = r;
  a.v = v;
  PPE_DEV_LAUNCH(ppe_dev_ti_gather, ppe_dev_ti_nv(T), stream, a);
  return 0;
}

PPE_DEV_EXTERN int PPE_DEV_NAME(PPEDevTileILUScatter)(const ppe_dev_tiles *T, const double *v, double *z, void *stream)
{
  ppe_dev_ti_args a;

  memset(&a, 0, sizeof(a));
  a.T  = *T;
  a.vc = v;
  a.z  = z;
  PPE_DEV_LAUNCH(ppe_dev_ti_scatter, ppe_dev_ti_nv(T), stream, a);
  return 0;
}
