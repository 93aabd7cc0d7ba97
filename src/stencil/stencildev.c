/*
   The back-end side of MATPPESTENCIL: the box a back end works on, the operator's state on
   its back end, and one application of the operator run in phases through the back end's
   table (src/backend/device/device.h; the host is one of them).

   Every application (MatMult, the rank-local block, the fused dot products, the fused
   Chebyshev step) is: start the halo exchange, compute the core points, finish the
   exchange, compute the surface points. PPEStencilRunWithHalo() runs that sequence, each
   step timed by its event; PPEStencilRunCore/RunSurface do the two computing phases with the
   table's stencil launcher. On a device both phases are queued on the back end's stream, so
   the device computes the core while the host waits for the halo messages (the overlap of
   the exchange with the core of Ali et al. (2019), Table II); the surface phase then copies
   the received faces in and waits.

   The state (PPEStencilDev) is made when the operator gets its grid or back end: the 1D
   tables and face buffers in the back end's memory (on the host, whose memory that is, the
   grid's tables and the exchange's buffers themselves) and the work of the fused dot
   products. The vectors' arrays come from PPEArraysGet() on the operator's back end: a
   vector that lives there is used in place, another is staged. An input that lives only in
   a device's memory sends its six boundary planes to the host for the halo exchange that
   MPI makes on host memory (counted as halo traffic, as are the faces that come back).

   References:
     Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of
     communication avoiding Chebyshev basis conjugate gradient solver for multiphase CFD
     simulations", ScalA workshop at SC19 (IEEE/ACM), 2019.
*/
#include <ppekit/private/stencilimpl.h>
#include <ppekit/private/backendimpl.h>
#include <kernels/krylov.h>
#include <backend/host/simd.h>

struct _n_PPEStencilDev {
  const PPEBackendOps *ops;
  void                *stream;  /* the back end's stream of vector operations */
  PetscBool            hostmem; /* the back end's memory is the host's: nothing mirrored */
  ppe_dev_box          box;     /* with the tables in the back end's memory */
  double              *tab;     /* the 12 tables copied, N[0], N[1] or N[2] values each (NULL on the host) */
  double              *faces;   /* the face arrays of a variable operator copied (NULL on the host or when constant) */
  const double        *hbase;   /* the host face buffers */
  double              *halo;    /* the face buffers in the back end's memory (hbase on the host) */
  size_t               hoff[6]; /* face offsets in halo */
  double              *work;    /* the row partials of the fused dot products */
  size_t               n, nhalo;
  double              *planes;  /* device-resident input: its six boundary planes, packed */
  double              *hplanes; /* their host copy */
  double              *xh;      /* host array over the box holding them (the halo's source) */
  size_t               nplanes;
  double              *sweep;       /* the work of the temporally blocked Chebyshev steps (made at their first call) */
  size_t               nsweep;      /* its doubles */
  PetscBool            halo_static; /* the face buffers never change (set by the owner) */
  PetscBool            halo_copied; /* and they are in the back end's memory already */
};

#define DEVCALL(d, expr) PPEBackendCall((d)->ops, expr)

/* Table of the box and its neighbours on this rank. */
PetscErrorCode PPEStencilBoxSetUp(PPEGrid grid, PPEStencilBox *B)
{
  PetscInt    s[3], m[3];
  ppe_s7_dir *dir[3] = {&B->X, &B->Y, &B->Z};

  PetscFunctionBegin;
  PetscCall(PetscArraycpy(s, grid->box.s, 3)); /* the kernels' 3D view of the grid's DMDA */
  PetscCall(PetscArraycpy(m, grid->box.m, 3));
  B->sigma = grid->shift;
  B->xs    = s[0];
  B->ys    = s[1];
  B->zs    = s[2];
  B->xm    = m[0];
  B->ym    = m[1];
  B->zm    = m[2];
  B->avx2  = PPEHostHasAVX2();
  B->K     = (ppe_s7_faces){NULL, NULL, NULL}; /* constant coefficients until the operator gets its own */
  for (int d = 0; d < 3; d++) {
    dir[d]->w        = grid->dir[d].w;
    dir[d]->tlo      = grid->dir[d].tlo;
    dir[d]->thi      = grid->dir[d].thi;
    dir[d]->d        = grid->dir[d].d;
    B->N[d]          = grid->N[d];
    B->per[d]        = (PetscBool)(grid->bc[2 * d] == PPE_BC_PERIODIC);
    B->nb[2 * d]     = (PetscBool)(s[d] > 0 || B->per[d]);
    B->nb[2 * d + 1] = (PetscBool)(s[d] + m[d] < grid->N[d] || B->per[d]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The diagonal of the operator on box B, in the order of the box (x fastest). */
void PPEStencilBoxDiagonal(const PPEStencilBox *B, PetscScalar *a)
{
  PetscInt l = 0;

  for (PetscInt k = B->zs; k < B->zs + B->zm; k++)
    for (PetscInt j = B->ys; j < B->ys + B->ym; j++)
      for (PetscInt i = B->xs; i < B->xs + B->xm; i++) a[l++] = B->K.x ? PPEStencilBoxFaceCoef(B, i - B->xs, j - B->ys, k - B->zs).c0 : ppe_s7_point_coef(B->X, B->Y, B->Z, B->sigma, i, j, k).c0;
}

/* The box of the back-end table, with the 1D tables of B in the back end's memory. */
static PetscErrorCode StateTables(PPEStencilDev d, const PPEStencilBox *B)
{
  const ppe_s7_dir *dir[3]  = {&B->X, &B->Y, &B->Z};
  ppe_s7_dir       *ddir[3] = {&d->box.X, &d->box.Y, &d->box.Z};
  size_t            off     = 0;

  PetscFunctionBegin;
  d->box.sigma = B->sigma;
  d->box.xs    = B->xs;
  d->box.ys    = B->ys;
  d->box.zs    = B->zs;
  d->box.xm    = B->xm;
  d->box.ym    = B->ym;
  d->box.zm    = B->zm;
  for (int e = 0; e < 3; e++) {
    d->box.N[e]   = B->N[e];
    d->box.per[e] = B->per[e] ? 1 : 0;
    *ddir[e]      = *dir[e];
  }
  for (int f = 0; f < 6; f++) d->box.nb[f] = B->nb[f] ? 1 : 0;
  d->box.K = B->K;
  if (d->hostmem) PetscFunctionReturn(PETSC_SUCCESS); /* the grid's own tables and the operator's face arrays */
  if (B->K.x) {
    size_t nf[3], m = 0;

    PPEStencilFaceCounts(B, nf);
    DEVCALL(d, d->ops->alloc((void **)&d->faces, (nf[0] + nf[1] + nf[2]) * sizeof(double)));
    for (int e = 0; e < 3; e++) {
      const double *src = e == 0 ? B->K.x : (e == 1 ? B->K.y : B->K.z);
      DEVCALL(d, d->ops->copy(d->faces + m, src, nf[e] * sizeof(double), PPE_DEV_H2D, d->stream));
      m += nf[e];
    }
    d->box.K = (ppe_s7_faces){d->faces, d->faces + nf[0], d->faces + nf[0] + nf[1]};
  }
  DEVCALL(d, d->ops->alloc((void **)&d->tab, 4 * (size_t)(B->N[0] + B->N[1] + B->N[2]) * sizeof(double)));
  for (int e = 0; e < 3; e++) {
    const double *src[4] = {dir[e]->w, dir[e]->tlo, dir[e]->thi, dir[e]->d};
    size_t        n      = (size_t)B->N[e];
    for (int q = 0; q < 4; q++) DEVCALL(d, d->ops->copy(d->tab + off + q * n, src[q], n * sizeof(double), PPE_DEV_H2D, d->stream));
    ddir[e]->w   = d->tab + off;
    ddir[e]->tlo = d->tab + off + n;
    ddir[e]->thi = d->tab + off + 2 * n;
    ddir[e]->d   = d->tab + off + 3 * n;
    off += 4 * n;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEStencilDevCreate - the state of an application on box B on back end backend, whose face
   buffers are faces (pointers into one host array hbase of nhalo values): made at set-up
*/
PetscErrorCode PPEStencilDevCreate(PPEBackend backend, const PPEStencilBox *B, const PPEStencilHalo *faces, const double *hbase, size_t nhalo, PPEStencilDev *dev)
{
  PPEStencilDev d;

  PetscFunctionBegin;
  PetscCall(PetscNew(&d));
  PetscCall(PPEBackendStream(backend, &d->ops, &d->stream));
  d->hostmem = (PetscBool)(d->ops == &PPEBackendOps_Host);
  d->n       = (size_t)B->xm * B->ym * B->zm;
  d->nhalo   = nhalo;
  d->hbase   = hbase;
  for (int f = 0; f < 6; f++) d->hoff[f] = faces->f[f] ? (size_t)(faces->f[f] - hbase) : 0;
  PetscCall(StateTables(d, B));
  d->halo = (double *)hbase;
  if (!d->hostmem) DEVCALL(d, d->ops->alloc((void **)&d->halo, (nhalo ? nhalo : 1) * sizeof(double)));
  DEVCALL(d, d->ops->alloc((void **)&d->work, PPE_DEV_ROW_RED_WORK(B->ym * B->zm, 2) * sizeof(double)));
  DEVCALL(d, d->ops->sync(d->stream));
  *dev = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEStencilDevDestroy(PPEStencilDev *dev)
{
  PPEStencilDev d = *dev;
  double       *a[6];

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  a[0] = d->tab, a[1] = d->halo != d->hbase ? d->halo : NULL, a[2] = d->work, a[3] = d->planes, a[4] = d->faces, a[5] = d->sweep;
  DEVCALL(d, d->ops->sync(d->stream));
  for (int i = 0; i < 6; i++)
    if (a[i]) DEVCALL(d, d->ops->release(a[i]));
  PetscCall(PetscFree(d->hplanes));
  PetscCall(PetscFree(d->xh));
  PetscCall(PetscFree(*dev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the back end of d runs several Chebyshev steps of the rank-local block in one
   sweep (stencil_ci_sweep) on its box: not where z is periodic and whole on the rank. */
PetscBool PPEStencilDevCanSweep(PPEStencilDev d)
{
  return (PetscBool)(d->ops->stencil_ci_sweep && !(d->box.per[2] && d->box.zm == d->box.N[2]));
}

/*
   PPEStencilDevCISweep - levels S->j0..S->j1 of the Chebyshev iteration on the rank-local block
   of d's box in one temporally blocked sweep (ppe_dev_ci_sweep; arrays in the back end's
   memory, S->work set here), finished when it returns. Only where PPEStencilDevCanSweep().
*/
PetscErrorCode PPEStencilDevCISweep(PPEStencilDev d, ppe_dev_ci_sweep *S)
{
  size_t need = PPE_DEV_CI_SWEEP_WORK(&d->box, S->j1 - S->j0 + 1);

  PetscFunctionBegin;
  PetscCheck(PPEStencilDevCanSweep(d), PETSC_COMM_SELF, PETSC_ERR_SUP, "The %s back end does not run Chebyshev steps in one sweep on this box", d->ops->name);
  if (need > d->nsweep) {
    if (d->sweep) DEVCALL(d, d->ops->release(d->sweep));
    d->sweep = NULL;
    DEVCALL(d, d->ops->alloc((void **)&d->sweep, need * sizeof(double)));
    d->nsweep = need;
  }
  S->work = d->sweep;
  DEVCALL(d, d->ops->stencil_ci_sweep(&d->box, S, d->stream));
  DEVCALL(d, d->ops->sync(d->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The face buffers of an application never change (a rank-local block without periodic
   wrap on the rank: zeros): copied to the back end once. */
void PPEStencilDevSetHaloStatic(PPEStencilDev d, PetscBool flg)
{
  d->halo_static = flg;
  if (!flg) d->halo_copied = PETSC_FALSE;
}

/*
   PPEStencilDevBoundary - the boundary planes of the array xd in the back end's memory on the
   faces of mask, copied to the host and written at their places in a host array over the box,
   returned in *xh (the other entries are zero or older planes): the source of the halo
   exchange and of the rank's own periodic wrap when the input lives only on a device. Counted
   as halo traffic.
*/
PetscErrorCode PPEStencilDevBoundary(PPEStencilDev d, const double *xd, const PetscBool mask[6], const double **xh)
{
  long xm = d->box.xm, ym = d->box.ym, zm = d->box.zm;
  long arr[6]    = {0, 0, 0, xm, ym, zm};
  long box[6][6] = {
    {0,      0,      0,      1,  ym, zm},
    {xm - 1, 0,      0,      1,  ym, zm},
    {0,      0,      0,      xm, 1,  zm},
    {0,      ym - 1, 0,      xm, 1,  zm},
    {0,      0,      0,      xm, ym, 1 },
    {0,      0,      zm - 1, xm, ym, 1 }
  };
  size_t off = 0;

  PetscFunctionBegin;
  if (!d->planes) {
    d->nplanes = (size_t)(2 * (ym * zm + xm * zm + xm * ym));
    DEVCALL(d, d->ops->alloc((void **)&d->planes, d->nplanes * sizeof(double)));
    PetscCall(PetscMalloc1(d->nplanes, &d->hplanes));
    PetscCall(PetscCalloc1(d->n ? d->n : 1, &d->xh));
  }
  for (int f = 0; f < 6; f++) {
    if (!mask[f]) continue;
    DEVCALL(d, d->ops->tp_copy(xd, NULL, 0.0, arr, box[f], box[f], d->planes + off, d->stream));
    off += (size_t)(box[f][3] * box[f][4] * box[f][5]);
  }
  PPEDeviceCountHalo(PETSC_TRUE);
  DEVCALL(d, d->ops->copy(d->hplanes, d->planes, off * sizeof(double), PPE_DEV_D2H, d->stream));
  PPEDeviceCountHalo(PETSC_FALSE);
  DEVCALL(d, d->ops->sync(d->stream));
  off = 0;
  for (int f = 0; f < 6; f++) {
    const long *b = box[f];
    if (!mask[f]) continue;
    for (long k = 0; k < b[5]; k++)
      for (long j = 0; j < b[4]; j++)
        for (long i = 0; i < b[3]; i++) d->xh[((b[2] + k) * ym + (b[1] + j)) * xm + (b[0] + i)] = d->hplanes[off + (k * b[4] + j) * b[3] + i];
    off += (size_t)(b[3] * b[4] * b[5]);
  }
  *xh = d->xh;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEStencilArraysGet - the arrays of the n vectors v of an application (x first; NULL entries
   allowed) in the memory of A's back end (PPEArraysGet(): in place where a vector lives
   there, else staged), and the host values of x, the source of the halo exchange: x's own
   array on the host, the host array of a staged x; NULL when x lives only on a device (its
   boundary planes are then fetched, PPEStencilDevBoundary())
*/
PetscErrorCode PPEStencilArraysGet(PPEStencilDev d, PPEBackend b, PetscInt n, const Vec v[], const PPEAccess acc[], PPEArrays *K, const double **xh)
{
  PetscFunctionBegin;
  PetscCall(PPEArraysGet(b, n, v, acc, PPE_ACCESS_READ, K));
  *xh = NULL;
  if (d->hostmem) *xh = K->a[0];
  else if (K->slot[0] >= 0) PetscCall(VecGetArrayRead(v[0], xh)); /* staged: its host values */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEStencilArraysRestore(PPEStencilDev d, PPEArrays *K, const double **xh)
{
  PetscFunctionBegin;
  if (!d->hostmem && *xh) PetscCall(VecRestoreArrayRead(K->v[0], xh));
  *xh = NULL;
  PetscCall(PPEArraysRestore(K));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEStencilApply - y = (an operator) x on back end b (state d): the arrays of x (read) and y
   (written) got, run(ctx, R) applies the operator on them, the arrays are given back and the
   flops logged. MatMult of the operator and of its local block.
*/
PetscErrorCode PPEStencilApply(PPEStencilDev d, PPEBackend b, Vec x, Vec y, PetscErrorCode (*run)(void *, PPEStencilRun *), void *ctx, PetscLogDouble flops)
{
  Vec           v[2]   = {x, y};
  PPEAccess     acc[2] = {PPE_ACCESS_READ, PPE_ACCESS_WRITE};
  PPEStencilRun R;
  PPEArrays     K;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&R, sizeof(R)));
  PetscCall(PPEStencilArraysGet(d, b, 2, v, acc, &K, &R.xh));
  R.x = K.a[0];
  R.y = K.a[1];
  PetscCall(run(ctx, &R));
  PetscCall(PPEStencilArraysRestore(d, &K, &R.xh));
  PetscCall(PetscLogFlops(flops));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The face buffers in the back end's memory (host: the exchange's buffers themselves). */
static void Faces(PPEStencilDev d, ppe_dev_halo *H)
{
  for (int f = 0; f < 6; f++) H->f[f] = d->box.nb[f] ? d->halo + d->hoff[f] : NULL;
}

/* One phase of the operator of R through the table: the fused dot products where the back end
   has them in its sweep (the host: the row partials while the row is in cache), else the
   plain stencil (or the fused Chebyshev step). */
static PetscErrorCode Phase(const PPEStencilRun *R, int phase)
{
  PPEStencilDev d = R->d;
  ppe_dev_halo  H;

  PetscFunctionBegin;
  Faces(d, &H);
  if (R->nd > 0 && d->ops->stencil_rowdot) DEVCALL(d, d->ops->stencil_rowdot(&d->box, R->x, &H, R->y, phase, (int)R->nd, R->u[0], R->u[1], d->work, (double *)R->s, d->stream));
  else DEVCALL(d, d->ops->stencil(&d->box, R->x, &H, R->y, phase, R->ci, d->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEStencilRunCore - the core points of one application: y = A x (with the fused dot products
   or Chebyshev step of R), queued on the back end's stream */
PetscErrorCode PPEStencilRunCore(const PPEStencilRun *R)
{
  PetscFunctionBegin;
  PetscCall(Phase(R, PPE_DEV_CORE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PPEStencilRunSurface - the received faces copied to the back end (counted as halo traffic when
   the input lives there only; nothing to copy on the host), the surface points, the dot
   products of a back end that computes them after the sweep; waits for the back end */
PetscErrorCode PPEStencilRunSurface(PPEStencilRun *R)
{
  PPEStencilDev d = R->d;

  PetscFunctionBegin;
  if (d->nhalo && !(d->halo_static && d->halo_copied)) {
    PPEDeviceCountHalo((PetscBool)!R->xh);
    DEVCALL(d, d->ops->copy(d->halo, d->hbase, d->nhalo * sizeof(double), PPE_DEV_H2D, d->stream));
    PPEDeviceCountHalo(PETSC_FALSE);
    d->halo_copied = d->halo_static;
  }
  PetscCall(Phase(R, PPE_DEV_SURFACE));
  if (R->nd > 0 && !d->ops->stencil_rowdot) DEVCALL(d, d->ops->stencil_dot(&d->box, (int)R->nd, R->y, R->u[0], R->u[1], d->work, R->s, d->stream)); /* the host's order */
  DEVCALL(d, d->ops->sync(d->stream));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Finish the halo exchange of x (a host array) started by PPEStencilRunWithHalo(), timed by PPEStencilHalo. */
static PetscErrorCode HaloEnd(Mat A, const double *x)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_StencilHalo, A, 0, 0, 0));
  PetscCall(PetscSFBcastEnd(st->sf, MPIU_SCALAR, x, st->halo, MPI_REPLACE));
  PetscCall(PetscLogEventEnd(PPE_StencilHalo, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
   PPEStencilRunWithHalo - the application R of the full operator A around the halo exchange
   of its input: start the exchange (from R->xh, or from the boundary planes of an input that
   lives only on a device), compute the core points, finish the exchange, compute the surface
   points. With overlap off the exchange is finished before the core points (same bits).
   Events: PPEStencilHalo (the wait for the exchange), PPEStencilCore, PPEStencilSurf.
*/
PetscErrorCode PPEStencilRunWithHalo(Mat A, PPEStencilRun *R)
{
  Mat_PPEStencil *st = (Mat_PPEStencil *)A->data;
  const double   *xh = R->xh; /* the source of the exchange, in host memory */

  PetscFunctionBegin;
  R->d = st->state;
  if (st->has_halo && !xh) { /* the planes sent across the faces that have a neighbour */
    PetscBool mask[6];
    for (int f = 0; f < 6; f++) mask[f] = st->box.nb[f];
    PetscCall(PPEStencilDevBoundary(R->d, R->x, mask, &xh));
  }
  if (st->has_halo) PetscCall(PetscSFBcastBegin(st->sf, MPIU_SCALAR, xh, st->halo, MPI_REPLACE));
  if (!st->overlap && st->has_halo) PetscCall(HaloEnd(A, xh));
  PetscCall(PetscLogEventBegin(PPE_StencilCore, A, 0, 0, 0));
  PetscCall(PPEStencilRunCore(R));
  PetscCall(PetscLogEventEnd(PPE_StencilCore, A, 0, 0, 0));
  if (st->overlap && st->has_halo) PetscCall(HaloEnd(A, xh));
  PetscCall(PetscLogEventBegin(PPE_StencilSurf, A, 0, 0, 0));
  PetscCall(PPEStencilRunSurface(R));
  PetscCall(PetscLogEventEnd(PPE_StencilSurf, A, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}
