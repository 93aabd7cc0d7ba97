/*
   Set-up of the FFT + tridiagonal pressure solver on pencils (PC fftptdma), from a
   PPESeparable only (grid-derived or inferred operators take the same path): pencil grid,
   groups, transposes, FFTW plans, eigenvalues and the z tridiagonal batch.

   Pencil grid P1 x P2 (P1 P2 = size), rank r = r1 + P1 r2:
     x-pencils  all x,          block r1 of y,  block r2 of z   (FFT x, contiguous lines)
     y-pencils  block r1 of x,  all y,          block r2 of z   (FFT y, stride nx; z solve in place)
     z-pencils  block r1 of x,  block r2 of y,  all z           (zsolve transpose: local Thomas)
   The x <-> y transposes run inside the P1 ranks with the same r2, the z solve and the
   y <-> z transposes inside the P2 ranks with the same r1 (MPI_Comm_split, paper 003).
   The x-pencils are the DMDA's own boxes when px = 1, py = P1, pz = P2 and the box is the
   whole DMDA, so the redistribution from the DMDA is then a local copy.

   The z systems after the transforms are, per (kx,ky) line (paper 000, eq. 12),
       (Lz + lambda_x + lambda_y + sigma) u = rhs / (norm_x norm_y);
   the normalisations of the transforms are folded once into the coefficients:
       S (Lz + lambda) u = rhs,   S = norm_x norm_y.
*/
#include <ppekit/private/fftptdmaimpl.h>
#include <ppekit/private/tridiagimpl.h> /* PPETridiagSetMethodOptionName */

const char *const PCFFTPTDMAZSolves[]  = {"ptdma", "transpose", "distd2", "auto", "PCFFTPTDMAZSolve", "PC_FFTPTDMA_ZSOLVE_", NULL};
const char *const PCFFTPTDMAPlanners[] = {"estimate", "measure", "patient", "PCFFTPTDMAPlanner", "PC_FFTPTDMA_PLANNER_", NULL};

/* The DM checks of the PC, on the DM it is given. */
PetscErrorCode PPEFFTPTDMACheckDM(DM da, const char what[])
{
  PetscBool       isda;
  PetscInt        dim, dof, sw;
  DMDAStencilType st;

  PetscFunctionBegin;
  PetscCheck(da, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PC fftptdma: %s has no DM; the operator must live on a 3D DMDA (MatGetDM() or PCSetDM())", what);
  PetscCall(PetscObjectTypeCompare((PetscObject)da, DMDA, &isda));
  PetscCheck(isda, PetscObjectComm((PetscObject)da), PETSC_ERR_ARG_WRONG, "PC fftptdma: the DM of %s is not a DMDA; a 3D DMDA with dof 1 is needed", what);
  PetscCall(DMDAGetInfo(da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, &dof, &sw, NULL, NULL, NULL, &st));
  PetscCheck(dim == 3, PetscObjectComm((PetscObject)da), PETSC_ERR_ARG_WRONG, "PC fftptdma: the DMDA of %s has dimension %" PetscInt_FMT "; only 3D DMDAs are supported", what, dim);
  PetscCheck(dof == 1, PetscObjectComm((PetscObject)da), PETSC_ERR_ARG_WRONG, "PC fftptdma: the DMDA of %s has dof = %" PetscInt_FMT "; only scalar fields (dof 1) are supported", what, dof);
  PetscCheck(sw >= 1, PetscObjectComm((PetscObject)da), PETSC_ERR_ARG_WRONG, "PC fftptdma: the DMDA of %s has stencil width %" PetscInt_FMT "; a 7-point operator needs stencil width >= 1", what, sw);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Pencil grid: the one asked for, or keep the DMDA's pz when every z block has >= 2 points
   (and the x-y groups fit the x and y sizes), else the divisor of size closest to it. */
static PetscErrorCode ChoosePencilGrid(PPEFFTPTDMA *f, const PetscInt pgrid[2], PetscInt pz)
{
  PetscInt size = f->size, *N = f->N;

  PetscFunctionBegin;
  if (pgrid && pgrid[0] > 0 && pgrid[1] > 0) {
    PetscCheck(pgrid[0] * pgrid[1] == size, f->comm, PETSC_ERR_ARG_INCOMP, "PC fftptdma: pencil grid %" PetscInt_FMT " x %" PetscInt_FMT " does not match the %d ranks (-pc_fftptdma_pgrid py,pz needs py*pz = number of ranks)", pgrid[0], pgrid[1], (int)size);
    f->P[0]  = pgrid[0];
    f->P[1]  = pgrid[1];
    f->pauto = PETSC_FALSE;
  } else {
    PetscInt best = -1;
    for (PetscInt d = 0; d <= size; d++) { /* distance from pz */
      for (int s = 0; s < 2 && best < 0; s++) {
        PetscInt p2 = s ? pz + d : pz - d;
        if (p2 < 1 || p2 > size || size % p2) continue;
        if (N[2] / p2 >= 2 && size / p2 <= PetscMin(N[0], N[1])) best = p2;
      }
      if (best > 0) break;
    }
    PetscCheck(best > 0, f->comm, PETSC_ERR_ARG_SIZ, "PC fftptdma: no pencil grid fits %d ranks on %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " unknowns (needs py <= nx, py <= ny and >= 2 z points per rank)", (int)size, N[0], N[1], N[2]);
    f->P[1]  = best;
    f->P[0]  = size / best;
    f->pauto = PETSC_TRUE;
  }
  PetscCheck(f->P[0] <= N[0] && f->P[0] <= N[1], f->comm, PETSC_ERR_ARG_SIZ, "PC fftptdma: pencil grid %" PetscInt_FMT " x %" PetscInt_FMT ": py = %" PetscInt_FMT " ranks per x-y group need at least one x and one y index each, but the box is %" PetscInt_FMT " x %" PetscInt_FMT, f->P[0], f->P[1], f->P[0], N[0], N[1]);
  PetscCheck(N[2] / f->P[1] >= 2, f->comm, PETSC_ERR_ARG_SIZ, "PC fftptdma: fewer than 2 z points per rank in the z group: %" PetscInt_FMT " z points over pz = %" PetscInt_FMT " ranks of pencil grid %" PetscInt_FMT " x %" PetscInt_FMT "; use fewer ranks along z (-pc_fftptdma_pgrid py,pz)", N[2], f->P[1], f->P[0], f->P[1]);
  if (f->zsolve == PC_FFTPTDMA_ZSOLVE_TRANSPOSE)
    PetscCheck(f->P[1] <= N[1], f->comm, PETSC_ERR_ARG_SIZ, "PC fftptdma: zsolve transpose splits y over pz = %" PetscInt_FMT " ranks but ny = %" PetscInt_FMT, f->P[1], N[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* FFTW's guru64 interface takes sizes and strides as ptrdiff_t: a pencil of more than 2^31
   values on one rank (possible with 64-bit PetscInt) plans without overflow. */
static fftw_iodim64 IODim(PetscInt n, PetscInt is, PetscInt os)
{
  fftw_iodim64 d;

  d.n  = (ptrdiff_t)n;
  d.is = (ptrdiff_t)is;
  d.os = (ptrdiff_t)os;
  return d;
}

static PetscErrorCode CreatePlans(PPEFFTPTDMA *f)
{
  unsigned     flags = f->planner == PC_FFTPTDMA_PLANNER_ESTIMATE ? FFTW_ESTIMATE : (f->planner == PC_FFTPTDMA_PLANNER_MEASURE ? FFTW_MEASURE : FFTW_PATIENT);
  PetscInt     n0 = f->N[0], n1 = f->N[1], nx = f->ybox[3], nz = f->xbox[5], hx = f->xbox[4] * f->xbox[5];
  fftw_iodim64 xdim = IODim(n0, 1, 1), xloop = IODim(hx, n0, n0); /* x: hx contiguous lines of n0 */
  /* y: lines of stride nx in the y-pencil (nx, ny_all, nz), looping over x (stride 1) and z */
  fftw_iodim64 ydim = IODim(n1, nx, nx), yloop[2] = {IODim(nx, 1, 1), IODim(nz, nx * n1, nx * n1)};

  PetscFunctionBegin;
  if (f->backend != PPE_BACKEND_HOST) PetscFunctionReturn(PETSC_SUCCESS); /* the device makes its own (fftdevice.c) */
  for (int s = 0; s < 2; s++) {
    fftw_r2r_kind kx = s ? f->kind[0].bwd : f->kind[0].fwd, ky = s ? f->kind[1].bwd : f->kind[1].fwd;

    f->plan[0][s] = fftw_plan_guru64_r2r(1, &xdim, 1, &xloop, f->xbuf, f->xbuf, &kx, flags);
    PetscCheck(f->plan[0][s], PETSC_COMM_SELF, PETSC_ERR_LIB, "FFTW could not plan the x transforms");
    f->plan[1][s] = fftw_plan_guru64_r2r(1, &ydim, 2, yloop, f->ybuf, f->ybuf, &ky, flags);
    PetscCheck(f->plan[1][s], PETSC_COMM_SELF, PETSC_ERR_LIB, "FFTW could not plan the y transforms");
  }
  /* When the x-pencils are the DMDA's boxes, the x transforms can read b's array and write
     x's array directly (out of place), which saves a copy each way; the forward plan must
     not touch its input (b). Planned on arrays from PetscMalloc like a Vec's; an array of
     another alignment takes the in-place path with the copies. */
  if (f->daaligned && !f->box) {
    PetscScalar  *tmp;
    fftw_r2r_kind kf = f->kind[0].fwd, kb = f->kind[0].bwd;

    PetscCall(PetscMalloc1(f->N[0] * f->xbox[4] * f->xbox[5], &tmp));
    f->xplan[0] = fftw_plan_guru64_r2r(1, &xdim, 1, &xloop, tmp, f->xbuf, &kf, flags | FFTW_PRESERVE_INPUT);
    f->xplan[1] = fftw_plan_guru64_r2r(1, &xdim, 1, &xloop, f->xbuf, tmp, &kb, flags | FFTW_DESTROY_INPUT);
    f->xalign   = fftw_alignment_of(tmp);
    PetscCall(PetscFree(tmp));
    PetscCheck(f->xplan[0] && f->xplan[1], PETSC_COMM_SELF, PETSC_ERR_LIB, "FFTW could not plan the out-of-place x transforms");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A row scale that depends on z only (cell volumes of a grid uniform in x and y: the
   x and y factors are constant) is folded into the z systems, W (sigma + Lx + Ly + Lz) u =
   rhs becomes, per (kx,ky) line, W_z (Lz + lambda) u = rhs: the right-hand side is then
   transformed as it is, without a division pass. f->wz holds the scale per z plane of the
   box; it stays NULL when there is no row scale or it varies in x or y (by more than 1e-14
   relative within a z plane). */
static PetscErrorCode ZOnlyRowScale(PPEFFTPTDMA *f, DM da, const PPESeparable *sep)
{
  PetscInt           xs, ys, zs, xm, ym, zm, nz = sep->n[2];
  PetscReal         *ext;
  const PetscScalar *s;
  PetscBool          zonly = PETSC_TRUE;
  PetscMPIInt        next;

  PetscFunctionBegin;
  if (!sep->rowscale) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(2 * nz, &ext)); /* per plane: -min, then max */
  for (PetscInt k = 0; k < 2 * nz; k++) ext[k] = PETSC_MIN_REAL;
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  PetscCall(VecGetArrayRead(sep->rowscale, &s));
  for (PetscInt k = zs; k < zs + zm; k++) {
    PetscInt kb = k - sep->lo[2];
    if (kb < 0 || kb >= nz) continue;
    for (PetscInt j = PetscMax(ys, sep->lo[1]); j < PetscMin(ys + ym, sep->lo[1] + sep->n[1]); j++)
      for (PetscInt i = PetscMax(xs, sep->lo[0]); i < PetscMin(xs + xm, sep->lo[0] + sep->n[0]); i++) {
        PetscReal v = PetscRealPart(s[(i - xs) + xm * ((j - ys) + ym * (k - zs))]);
        ext[kb]      = PetscMax(ext[kb], -v);
        ext[nz + kb] = PetscMax(ext[nz + kb], v);
      }
  }
  PetscCall(VecRestoreArrayRead(sep->rowscale, &s));
  PetscCall(PetscMPIIntCast(2 * nz, &next));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, ext, next, MPIU_REAL, MPIU_MAX, f->comm));
  for (PetscInt k = 0; k < nz; k++) zonly = (PetscBool)(zonly && -ext[k] > 0 && ext[nz + k] + ext[k] <= 1e-14 * ext[nz + k]);
  if (zonly) {
    PetscCall(PetscMalloc1(nz, &f->wz));
    for (PetscInt k = 0; k < nz; k++) f->wz[k] = ext[nz + k];
  }
  PetscCall(PetscFree(ext));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetUpZ(PPEFFTPTDMA *f, const PPESeparable *sep)
{
  PetscBool        inplace = (PetscBool)(f->zsolve != PC_FFTPTDMA_ZSOLVE_TRANSPOSE);
  const PetscInt  *box     = inplace ? f->ybox : f->zbox;
  PetscInt         nsys    = box[3] * box[4], m = box[5], zs = box[2], pin = 0, npin = 0;
  PetscReal       *a, *b, *c, *shift, *w, S = f->scale;
  PPETridiagMethod method;

  PetscFunctionBegin;
  PetscCall(PPETridiagCreate(inplace ? f->zcomm : PETSC_COMM_SELF, &f->td));
  PetscCall(PPETridiagSetSizes(f->td, nsys, m));
  PetscCall(PPETridiagSetMethodOptionName(f->td, "-pc_fftptdma_zsolve"));
  PetscCall(PPETridiagSetBackend(f->td, f->backend));
  PetscCall(PetscMalloc5(m, &a, m, &b, m, &c, nsys, &shift, m, &w));
  for (PetscInt k = 0; k < m; k++) {
    w[k] = f->wz ? f->wz[zs + k] : 1.0; /* row k scaled by the z-only row scale, and its shift weighted by it */
    a[k] = -S * w[k] * sep->zlo[zs + k];
    b[k] = S * w[k] * sep->zdi[zs + k];
    c[k] = -S * w[k] * sep->zhi[zs + k];
  }
  for (PetscInt j = 0; j < box[4]; j++)
    for (PetscInt i = 0; i < box[3]; i++) shift[i + box[3] * j] = S * (f->lam[0][box[0] + i] + f->lam[1][box[1] + j] + sep->sigma);
  PetscCall(PPETridiagSetPeriodic(f->td, (PetscBool)(sep->bc[4] == PPE_BC_PERIODIC)));
  PetscCall(PPETridiagSetCoefficients(f->td, a, b, c));
  PetscCall(PPETridiagSetShift(f->td, shift, w));
  PetscCall(PetscFree5(a, b, c, shift, w)); /* copied by the batch; freed before a set-up that may fail */
  /* the zero mode (kx, ky) = (0, 0) of a singular operator: pinned on purpose */
  if (f->singular && box[0] == 0 && box[1] == 0) npin = 1; /* line 0 is (kx, ky) = (0, 0); every rank of the z group has it */
  PetscCall(PPETridiagSetPinnedLines(f->td, npin, &pin));
  switch (f->zsolve) {
  case PC_FFTPTDMA_ZSOLVE_PTDMA:
    method = PPE_TRIDIAG_PTDMA;
    break;
  case PC_FFTPTDMA_ZSOLVE_DISTD2:
    method = PPE_TRIDIAG_DISTD2;
    break;
  case PC_FFTPTDMA_ZSOLVE_TRANSPOSE:
    method = PPE_TRIDIAG_THOMAS;
    break;
  default:
    method = PPE_TRIDIAG_AUTO;
  }
  if (inplace && f->P[1] == 1) method = PPE_TRIDIAG_THOMAS; /* the whole line on one rank */
  PetscCall(PPETridiagSetMethod(f->td, method));
  PetscCall(PPETridiagSetUp(f->td));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The operator part of the set-up: eigenvalues in the transforms' output order, the z lines,
   the work vectors of the box and the row scaling. */
static PetscErrorCode SetUpOperator(PPEFFTPTDMA *f, DM da, const PPESeparable *sep)
{
  PetscFunctionBegin;
  f->singular = sep->singular;
  f->specmean = f->singular;
  for (int d = 0; d < 2; d++) /* periodic (R2HC) and cell Neumann (REDFT10): the backward transform of a mode other than 0 sums to 0 */
    f->specmean = (PetscBool)(f->specmean && (f->kind[d].fwd == FFTW_R2HC || f->kind[d].fwd == FFTW_REDFT10));
  PetscCheck(!(f->singular && f->zsolve == PC_FFTPTDMA_ZSOLVE_DISTD2), f->comm, PETSC_ERR_ARG_INCOMP, "PC fftptdma: -pc_fftptdma_zsolve distd2 cannot solve the pinned zero mode of a singular operator (no Dirichlet face, no shift); use ptdma or auto (auto runs DistD2 on every line where it is exact)");
  for (int d = 0; d < 2; d++) {
    PetscCall(PetscMalloc1(f->N[d], &f->lam[d]));
    PetscCall(PPEFFT1dEigenvalues(sep->loc[d], sep->bc[2 * d], sep->bc[2 * d + 1], f->N[d], sep->c[d], f->lam[d]));
  }
  f->scale = f->kind[0].norm * f->kind[1].norm;
  f->direct[0] = f->direct[1] = 0;
  PetscCall(ZOnlyRowScale(f, da, sep));
  /* the left null vector is the constant when the operator is symmetric: symmetric x and y
     transforms (periodic, cell Neumann: specmean) and a symmetric (0,0) z line W_z Lz; then
     the constant part of b, which no solution can match, is removed before the z solve */
  f->specproj = (PetscBool)(f->specmean && (f->wz || !sep->rowscale));
  for (PetscInt k = 0; f->specproj && k < f->N[2]; k++) {
    PetscInt  k1 = (k + 1) % f->N[2];
    PetscReal up, dn;
    if (k == f->N[2] - 1 && sep->bc[5] != PPE_BC_PERIODIC) break;
    up = (f->wz ? f->wz[k] : 1.0) * sep->zhi[k];
    dn = (f->wz ? f->wz[k1] : 1.0) * sep->zlo[k1];
    f->specproj = (PetscBool)(PetscAbsReal(up - dn) <= 1e-13 * PetscMax(PetscAbsReal(up), PetscAbsReal(dn)));
  }
  PetscCall(SetUpZ(f, sep));
  {
    PetscInt       solves;
    PetscLogDouble bytes, msgs;
    PetscCall(PPETridiagGetCommCounts(f->td, &solves, &bytes, &msgs));
    f->zbytes0 = bytes;
  }
  if (f->box) PetscCall(DMCreateGlobalVector(da, &f->work));
  if (f->box) PetscCall(DMCreateGlobalVector(da, &f->xout));
  if (sep->rowscale && !f->wz) {
    PetscCall(VecDuplicate(sep->rowscale, &f->rinv));
    PetscCall(VecCopy(sep->rowscale, f->rinv));
    PetscCall(VecReciprocal(f->rinv));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ResetOperator(PPEFFTPTDMA *f)
{
  PetscFunctionBegin;
  PetscCall(PPEFFTPTDMADeviceDestroy(f));
  PetscCall(PPETridiagDestroy(&f->td));
  PetscCall(PetscFree(f->lam[0]));
  PetscCall(PetscFree(f->lam[1]));
  PetscCall(VecDestroy(&f->work));
  PetscCall(VecDestroy(&f->xout));
  PetscCall(VecDestroy(&f->rinv));
  PetscCall(PetscFree(f->wz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What the pencils, transposes and plans depend on: when it is unchanged at a new set-up
   (new operator values, shift or z coefficients on the same DMDA) they are kept. */
static PetscErrorCode LayoutKey(MPI_Comm comm, DM da, const PPESeparable *sep, const PetscInt pgrid[2], PCFFTPTDMAZSolve zsolve, PCFFTPTDMAPlanner planner, PPEBackend backend, PetscInt key[])
{
  PetscInt    q = 0, c[6], pd[3];
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(DMDAGetInfo(da, NULL, NULL, NULL, NULL, &pd[0], &pd[1], &pd[2], NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &c[0], &c[1], &c[2], &c[3], &c[4], &c[5]));
  key[q++] = size;
  for (int d = 0; d < 3; d++) {
    key[q++] = sep->M[d];
    key[q++] = sep->lo[d];
    key[q++] = sep->n[d];
    key[q++] = pd[d];
  }
  for (int d = 0; d < 6; d++) key[q++] = c[d];
  for (int d = 0; d < 2; d++) key[q++] = sep->loc[d];
  for (int f = 0; f < 4; f++) key[q++] = sep->bc[f];
  key[q++] = pgrid ? pgrid[0] : 0;
  key[q++] = pgrid ? pgrid[1] : 0;
  key[q++] = zsolve;
  key[q++] = planner;
  key[q++] = backend;
  key[q++] = sep->idiag != NULL;
  PetscCheck(q == PPE_FFTPTDMA_KEY, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Layout key has %" PetscInt_FMT " entries", q);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEFFTPTDMASetUp(PPEFFTPTDMA *f, MPI_Comm comm, DM da, const PPESeparable *sep, const PetscInt pgrid[2], PCFFTPTDMAZSolve zsolve, PCFFTPTDMAPlanner planner)
{
  PetscInt        M[3], pd[3], xs, ys, zs, xm, ym, zm, whole[6], dadata[6], key[PPE_FFTPTDMA_KEY];
  PPEBackend      backend;
  const PetscInt *lr[3];
  PetscMPIInt     r[2]; /* this rank's pencil-grid coordinates, as MPI colour and key */

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_FFTPTDMASetUp, 0, 0, 0, 0));
  PetscCall(PPEFFTPTDMACheckDM(da, "the operator"));
  PetscCall(PPEBackendGetDefault(comm, &backend)); /* -ppe_backend: the transforms, the copies and the z solve */
  PetscCall(LayoutKey(comm, da, sep, pgrid, zsolve, planner, backend, key));
  if (f->xbuf && f->comm == comm) {
    PetscBool same = PETSC_TRUE;
    for (int q = 0; q < PPE_FFTPTDMA_KEY; q++) same = (PetscBool)(same && key[q] == f->key[q]);
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &same, 1, PPE_MPI_BOOL, MPI_LAND, comm));
    if (same) { /* same pencils, transposes and plans: only the operator part is redone */
      PetscCall(ResetOperator(f));
      f->relayouts++;
      f->solves    = 0;
      f->tda.bytes = f->txy.bytes = f->tyz.bytes = 0;
      PetscCall(SetUpOperator(f, da, sep));
      PetscCall(PetscLogEventEnd(PPE_FFTPTDMASetUp, 0, 0, 0, 0));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(PPEFFTPTDMAReset(f));
  for (int q = 0; q < PPE_FFTPTDMA_KEY; q++) f->key[q] = key[q];
  f->comm    = comm;
  f->zsolve  = zsolve;
  f->planner = planner;
  f->backend = backend;
  PetscCallMPI(MPI_Comm_size(comm, &f->size));
  PetscCallMPI(MPI_Comm_rank(comm, &f->rank));
  PetscCall(DMDAGetInfo(da, NULL, &M[0], &M[1], &M[2], &pd[0], &pd[1], &pd[2], NULL, NULL, NULL, NULL, NULL, NULL));
  for (int d = 0; d < 3; d++) {
    PetscCheck(M[d] == sep->M[d], comm, PETSC_ERR_ARG_INCOMP, "PC fftptdma: the DMDA has %" PetscInt_FMT " points along %c but the operator description %" PetscInt_FMT, M[d], "xyz"[d], sep->M[d]);
    f->N[d] = sep->n[d];
    PetscCheck(sep->n[d] >= 2 && sep->lo[d] >= 0 && sep->lo[d] + sep->n[d] <= M[d], comm, PETSC_ERR_ARG_OUTOFRANGE, "PC fftptdma: box of unknowns [%" PetscInt_FMT ", %" PetscInt_FMT ") along %c does not fit the DMDA (%" PetscInt_FMT " points) or has fewer than 2 points", sep->lo[d], sep->lo[d] + sep->n[d], "xyz"[d], M[d]);
  }
  PetscCheck((sep->bc[4] == PPE_BC_PERIODIC) == (sep->bc[5] == PPE_BC_PERIODIC), comm, PETSC_ERR_SUP, "PC fftptdma: z BC pair %s-%s is not supported: periodic needs both faces", PPEBCTypes[sep->bc[4]], PPEBCTypes[sep->bc[5]]);
  for (int d = 0; d < 2; d++) {
    PetscCheck((sep->bc[2 * d] == PPE_BC_PERIODIC) == (sep->bc[2 * d + 1] == PPE_BC_PERIODIC), comm, PETSC_ERR_SUP, "PC fftptdma: %c BC pair %s-%s is not supported: periodic needs both faces (supported: periodic-periodic and any pair of neumann and dirichlet)", "xy"[d], PPEBCTypes[sep->bc[2 * d]], PPEBCTypes[sep->bc[2 * d + 1]]);
    PetscCall(PPEFFT1dGetKind(sep->loc[d], sep->bc[2 * d], sep->bc[2 * d + 1], f->N[d], &f->kind[d]));
  }
  f->box = (PetscBool)(sep->idiag != NULL);
  PetscCall(ChoosePencilGrid(f, pgrid, pd[2]));
  f->r[0] = f->rank % f->P[0];
  f->r[1] = f->rank / f->P[0];

  /* pencils */
  PetscCall(DMDAGetOwnershipRanges(da, &lr[0], &lr[1], &lr[2]));
  f->daaligned = (PetscBool)(pd[0] == 1 && pd[1] == f->P[0] && pd[2] == f->P[1] && !f->box);
  for (int d = 0; d < 3; d++) f->daaligned = (PetscBool)(f->daaligned && sep->n[d] == M[d]);
  f->xbox[0] = 0;
  f->xbox[3] = f->N[0];
  if (f->daaligned) {
    f->xbox[1] = f->xbox[2] = 0;
    for (PetscInt q = 0; q < f->r[0]; q++) f->xbox[1] += lr[1][q];
    for (PetscInt q = 0; q < f->r[1]; q++) f->xbox[2] += lr[2][q];
    f->xbox[4] = lr[1][f->r[0]];
    f->xbox[5] = lr[2][f->r[1]];
  } else {
    PPEBlockSplit(f->N[1], f->P[0], f->r[0], &f->xbox[1], &f->xbox[4]);
    PPEBlockSplit(f->N[2], f->P[1], f->r[1], &f->xbox[2], &f->xbox[5]);
  }
  PetscCheck(f->xbox[5] >= 2 || f->P[1] == 1, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "PC fftptdma: fewer than 2 z points on rank %d of the z group (DMDA z ownership)", (int)f->rank);
  PPEBlockSplit(f->N[0], f->P[0], f->r[0], &f->ybox[0], &f->ybox[3]);
  f->ybox[1] = 0;
  f->ybox[4] = f->N[1];
  f->ybox[2] = f->xbox[2];
  f->ybox[5] = f->xbox[5];
  f->zbox[0] = f->ybox[0];
  f->zbox[3] = f->ybox[3];
  PPEBlockSplit(f->N[1], f->P[1], f->r[1], &f->zbox[1], &f->zbox[4]);
  f->zbox[2] = 0;
  f->zbox[5] = f->N[2];
  PetscCall(PetscMPIIntCast(f->r[0], &r[0]));
  PetscCall(PetscMPIIntCast(f->r[1], &r[1]));
  PetscCallMPI(MPI_Comm_split(comm, r[1], r[0], &f->xycomm));
  PetscCallMPI(MPI_Comm_split(comm, r[0], r[1], &f->zcomm));

  /* DMDA <-> x-pencils */
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  f->dabox[0] = xs - sep->lo[0];
  f->dabox[1] = ys - sep->lo[1];
  f->dabox[2] = zs - sep->lo[2];
  f->dabox[3] = xm;
  f->dabox[4] = ym;
  f->dabox[5] = zm;
  for (int d = 0; d < 3; d++) {
    whole[d]     = 0;
    whole[3 + d] = f->N[d];
  }
  PPEBoxIntersect(f->dabox, whole, dadata);
  PetscCall(PPETransposeCreate(comm, dadata, f->dabox, f->xbox, f->xbox, PPE_FFTPTDMATransDA, &f->tda));
  PetscCall(PetscMalloc1(f->xbox[3] * f->xbox[4] * f->xbox[5], &f->xbuf));
  if (f->P[0] > 1) {
    PetscCall(PetscMalloc1(f->ybox[3] * f->ybox[4] * f->ybox[5], &f->ybuf));
    PetscCall(PPETransposeCreate(f->xycomm, f->xbox, f->xbox, f->ybox, f->ybox, PPE_FFTPTDMATransXY, &f->txy));
  } else f->ybuf = f->xbuf;
  if (f->zsolve == PC_FFTPTDMA_ZSOLVE_TRANSPOSE && f->P[1] > 1) {
    PetscCall(PetscMalloc1(f->zbox[3] * f->zbox[4] * f->zbox[5], &f->zbuf));
    PetscCall(PPETransposeCreate(f->zcomm, f->ybox, f->ybox, f->zbox, f->zbox, PPE_FFTPTDMATransYZ, &f->tyz));
  } else f->zbuf = f->ybuf;

  PetscCall(CreatePlans(f));
  PetscCall(SetUpOperator(f, da, sep));
  PetscCall(PetscLogEventEnd(PPE_FFTPTDMASetUp, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEFFTPTDMAReset(PPEFFTPTDMA *f)
{
  PetscFunctionBegin;
  for (int d = 0; d < 2; d++)
    for (int s = 0; s < 2; s++)
      if (f->plan[d][s]) fftw_destroy_plan(f->plan[d][s]);
  for (int s = 0; s < 2; s++)
    if (f->xplan[s]) fftw_destroy_plan(f->xplan[s]);
  if (f->zbuf && f->zbuf != f->ybuf) PetscCall(PetscFree(f->zbuf));
  if (f->ybuf && f->ybuf != f->xbuf) PetscCall(PetscFree(f->ybuf));
  PetscCall(PetscFree(f->xbuf));
  if (f->tda.abox) PetscCall(PPETransposeReset(&f->tda));
  if (f->txy.abox) PetscCall(PPETransposeReset(&f->txy));
  if (f->tyz.abox) PetscCall(PPETransposeReset(&f->tyz));
  if (f->xycomm != MPI_COMM_NULL && f->xycomm) PetscCallMPI(MPI_Comm_free(&f->xycomm));
  if (f->zcomm != MPI_COMM_NULL && f->zcomm) PetscCallMPI(MPI_Comm_free(&f->zcomm));
  PetscCall(ResetOperator(f));
  PetscCall(PetscMemzero(f, sizeof(*f)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
