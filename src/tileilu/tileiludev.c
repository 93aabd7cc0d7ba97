/*
   PC tileilu's application on a device back end: the factors (and those of M^T once built)
   are copied to the device at the first application after a set-up and stay there; r is
   copied in and z out at each application, unless both are device-resident (T->devio: used
   in place). xyz: one thread per tile; zyx: gather into the
   packed groups, one thread per lane (tile) for the sweeps, scatter back (three launches:
   the host's fused chunk loop is a cache optimisation a GPU does not need).
*/
#include <ppekit/private/tileiluimpl.h>
#include <ppekit/private/backendimpl.h>

struct _n_PPETileDev {
  const PPEBackendOps *ops;
  void               *stream;
  ppe_dev_tiles       tiles;
  double             *f, *ft; /* factors, of M and of M^T (when built) */
  double             *r, *z;  /* vectors over the box */
  double             *v;      /* zyx: the packed values of every group */
};

#define DEVCALL(D, expr) PPEBackendCall((D)->ops, expr)

PetscErrorCode PPETileILUDeviceDestroy(PPETileILU *T)
{
  struct _n_PPETileDev *D = T->dev;
  double               *a[5];

  PetscFunctionBegin;
  if (!D) PetscFunctionReturn(PETSC_SUCCESS);
  a[0] = D->f, a[1] = D->ft, a[2] = D->r, a[3] = D->z, a[4] = D->v;
  DEVCALL(D, D->ops->sync(D->stream));
  for (int i = 0; i < 5; i++)
    if (a[i]) DEVCALL(D, D->ops->release(a[i]));
  DEVCALL(D, D->ops->stream_destroy(D->stream));
  PetscCall(PetscFree(T->dev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DeviceCreate(PPETileILU *T)
{
  struct _n_PPETileDev *D;

  PetscFunctionBegin;
  PetscCall(PetscNew(&D));
  T->dev = D;
  PetscCall(PPEBackendGetOps(T->backend, &D->ops));
  DEVCALL(D, D->ops->stream_create(&D->stream));
  D->tiles.sym     = T->sym ? 1 : 0;
  D->tiles.nloc    = T->nloc;
  D->tiles.ntiles  = T->ntiles;
  D->tiles.lanes   = T->lanes;
  D->tiles.ngroups = T->ngroups;
  D->tiles.nc      = T->nc;
  for (int d = 0; d < 3; d++) {
    D->tiles.box[d]  = T->box[d];
    D->tiles.tile[d] = T->tile[d];
    D->tiles.nt[d]   = T->nt[d];
  }
  DEVCALL(D, D->ops->alloc((void **)&D->f, PetscMax(T->nf, 1) * sizeof(double)));
  DEVCALL(D, D->ops->copy(D->f, T->f, T->nf * sizeof(double), PPE_DEV_H2D, D->stream));
  DEVCALL(D, D->ops->alloc((void **)&D->r, PetscMax(T->nloc, 1) * sizeof(double)));
  DEVCALL(D, D->ops->alloc((void **)&D->z, PetscMax(T->nloc, 1) * sizeof(double)));
  if (T->layout == PC_TILEILU_LAYOUT_ZYX) DEVCALL(D, D->ops->alloc((void **)&D->v, PetscMax((size_t)T->ngroups * T->npos * T->lanes, 1) * sizeof(double)));
  DEVCALL(D, D->ops->sync(D->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* z = M^-1 r (or M^-T r: the factors of the transpose, built by the caller, in T->ft). */
PetscErrorCode PPETileILUApplyDevice(PPETileILU *T, PetscBool transpose, const double *r, double *z)
{
  struct _n_PPETileDev *D;
  const double         *F, *dr;
  double               *dz;

  PetscFunctionBegin;
  if (!T->dev) PetscCall(DeviceCreate(T));
  D  = T->dev;
  dr = D->r;
  dz = D->z;
  if (transpose && !D->ft) {
    DEVCALL(D, D->ops->alloc((void **)&D->ft, PetscMax(T->nf, 1) * sizeof(double)));
    DEVCALL(D, D->ops->copy(D->ft, T->ft, T->nf * sizeof(double), PPE_DEV_H2D, D->stream));
  }
  F = transpose ? D->ft : D->f;
  if (T->devio) { /* device-resident vectors: used in place */
    dr = r;
    dz = z;
  } else DEVCALL(D, D->ops->copy(D->r, r, (size_t)T->nloc * sizeof(double), PPE_DEV_H2D, D->stream));
  if (T->layout == PC_TILEILU_LAYOUT_XYZ) {
    PetscCall(PetscLogEventBegin(PPE_TileILUSweep, 0, 0, 0, 0));
    DEVCALL(D, D->ops->tileilu_xyz(&D->tiles, F, dr, dz, D->stream));
    PetscCall(PetscLogEventEnd(PPE_TileILUSweep, 0, 0, 0, 0));
  } else {
    PetscCall(PetscLogEventBegin(PPE_TileILUGather, 0, 0, 0, 0));
    DEVCALL(D, D->ops->tileilu_gather(&D->tiles, dr, D->v, D->stream));
    PetscCall(PetscLogEventEnd(PPE_TileILUGather, 0, 0, 0, 0));
    PetscCall(PetscLogEventBegin(PPE_TileILUSweep, 0, 0, 0, 0));
    DEVCALL(D, D->ops->tileilu_zyx(&D->tiles, F, D->v, D->stream));
    PetscCall(PetscLogEventEnd(PPE_TileILUSweep, 0, 0, 0, 0));
    PetscCall(PetscLogEventBegin(PPE_TileILUScatter, 0, 0, 0, 0));
    DEVCALL(D, D->ops->tileilu_scatter(&D->tiles, D->v, dz, D->stream));
    PetscCall(PetscLogEventEnd(PPE_TileILUScatter, 0, 0, 0, 0));
  }
  if (!T->devio) DEVCALL(D, D->ops->copy(z, D->z, (size_t)T->nloc * sizeof(double), PPE_DEV_D2H, D->stream));
  DEVCALL(D, D->ops->sync(D->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}
