/*
   Set-up of the FFT + tridiagonal pressure solver on pencils (PC fftptdma), from a
   PPESeparable only (grid-derived or inferred operators take the same path): pencil grid,
   groups, transposes, FFTW plans, eigenvalues and the z tridiagonal batch.

   Pencil grid P1 x P2 (P1 P2 = size), rank r = r1 + P1 r2:
     x-pencils  all x,          block r1 of y,  block r2 of z   (FFT x, contiguous lines)
     y-pencils  block r1 of x,  all y,          block r2 of z   (FFT y, stride nx; z solve in place)
     z-pencils  block r1 of x,  block r2 of y,  all z           (zsolve transpose: local Thomas)
   The x <-> y transposes run inside the P1 ranks with the same r2, the z solve and the
   y <-> z transposes inside the P2 ranks with the same r1 (MPI_Comm_split process groups, as
   in the transpose split method of Wapperom, Beris and Straka (2006)).
   The x-pencils are the DMDA's own boxes when px = 1, py = P1, pz = P2 and the box is the
   whole DMDA, so the redistribution from the DMDA is then a local copy.

   The z systems after the transforms are, per (kx,ky) line (Diez, Peeters and Costa (2025),
   eq. 12),
       (Lz + lambda_x + lambda_y + sigma) u = rhs / (norm_x norm_y);
   the normalisations of the transforms are folded once into the coefficients:
       S (Lz + lambda) u = rhs,   S = norm_x norm_y.

   References:
     R. Diez, J. Peeters and P. Costa, "A pencil-distributed finite-difference solver for
     extreme-scale calculations of turbulent wall flows at high Reynolds number",
     arXiv:2502.06296, 2025.
     P. Wapperom, A. N. Beris and M. A. Straka, "A new transpose split method for
     three-dimensional FFTs: performance on an Origin2000 and Alphaserver cluster", Parallel
     Computing 32, 2006.
*/
#include <ppekit/private/fftptdmaimpl.h>
#include <ppekit/private/tridiagimpl.h> /* PPETridiagSetMethodOptionName */
#include <ppekit/private/gridimpl.h>    /* PPEDMDAGetBox: the kernels' 3D view of a DMDA (a 2D one nx x ny is nx x 1 x ny) */

/* The DM checks of the solver called name (PPEFFTPTDMAName(), or its owner's name), on the DM
   of what. */
PetscErrorCode PPEFFTPTDMACheckDM(const char name[], DM da, const char what[])
{
  PetscBool       isda;
  PetscInt        dim, dof, sw;
  DMDAStencilType st;

  PetscFunctionBegin;
  PetscCheck(da, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "%s: %s has no DM; the operator must live on a 3D DMDA (MatGetDM() or PCSetDM())", name, what);
  PetscCall(PetscObjectTypeCompare((PetscObject)da, DMDA, &isda));
  PetscCheck(isda, PetscObjectComm((PetscObject)da), PETSC_ERR_ARG_WRONG, "%s: the DM of %s is not a DMDA; a 3D DMDA with dof 1 is needed", name, what);
  PetscCall(DMDAGetInfo(da, &dim, NULL, NULL, NULL, NULL, NULL, NULL, &dof, &sw, NULL, NULL, NULL, &st));
  PetscCheck(dim >= 2, PetscObjectComm((PetscObject)da), PETSC_ERR_ARG_WRONG, "%s: the DMDA of %s has dimension %" PetscInt_FMT "; only 2D and 3D DMDAs are supported", name, what, dim);
  PetscCheck(dof == 1, PetscObjectComm((PetscObject)da), PETSC_ERR_ARG_WRONG, "%s: the DMDA of %s has dof = %" PetscInt_FMT "; only scalar fields (dof 1) are supported", name, what, dof);
  PetscCheck(sw >= 1, PetscObjectComm((PetscObject)da), PETSC_ERR_ARG_WRONG, "%s: the DMDA of %s has stencil width %" PetscInt_FMT "; a 7-point operator needs stencil width >= 1", name, what, sw);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Pencil grid: the one asked for, or keep the DMDA's pz when every z block has >= 2 points
   (and the x-y groups fit the x and y sizes), else the divisor of size closest to it. */
static PetscErrorCode ChoosePencilGrid(PPEFFTPTDMA *f, const PetscInt pgrid[2], PetscInt pz)
{
  PetscInt size = f->size, *N = f->N;

  PetscFunctionBegin;
  PetscCheck(!f->flat || !pgrid || pgrid[0] <= 1, f->comm, PETSC_ERR_ARG_INCOMP,
             "%s: pencil grid %" PetscInt_FMT " x %" PetscInt_FMT " on a 2D problem: py must be 1 (there is no y to transform, the tridiagonal solve along the user's y runs over all %d ranks: %s 1,%d)", PPEFFTPTDMAName(f), pgrid ? pgrid[0] : 0,
             pgrid ? pgrid[1] : 0, (int)size, PPEFFTPTDMAOptionName(f, PPE_FFT_OPTION_PGRID), (int)size);
  if (pgrid && pgrid[0] > 0 && pgrid[1] > 0) {
    PetscCheck(pgrid[0] * pgrid[1] == size, f->comm, PETSC_ERR_ARG_INCOMP, "%s: pencil grid %" PetscInt_FMT " x %" PetscInt_FMT " does not match the %d ranks (%s py,pz needs py*pz = number of ranks)", PPEFFTPTDMAName(f), pgrid[0], pgrid[1],
               (int)size, PPEFFTPTDMAOptionName(f, PPE_FFT_OPTION_PGRID));
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
    PetscCheck(best > 0 || !f->flat, f->comm, PETSC_ERR_ARG_SIZ, "%s: a 2D problem runs its tridiagonal solve along the user's y over all %d ranks, which needs at least 2 points of %" PetscInt_FMT " per rank", PPEFFTPTDMAName(f), (int)size, N[2]);
    PetscCheck(best > 0, f->comm, PETSC_ERR_ARG_SIZ, "%s: no pencil grid fits %d ranks on %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT " unknowns (needs py <= nx, py <= ny and >= 2 z points per rank)", PPEFFTPTDMAName(f), (int)size, N[0],
               N[1], N[2]);
    f->P[1]  = best;
    f->P[0]  = size / best;
    f->pauto = PETSC_TRUE;
  }
  PetscCheck(f->P[0] <= N[0] && f->P[0] <= N[1], f->comm, PETSC_ERR_ARG_SIZ,
             "%s: pencil grid %" PetscInt_FMT " x %" PetscInt_FMT ": py = %" PetscInt_FMT " ranks per x-y group need at least one x and one y index each, but the box is %" PetscInt_FMT " x %" PetscInt_FMT, PPEFFTPTDMAName(f), f->P[0], f->P[1],
             f->P[0], N[0], N[1]);
  PetscCheck(N[2] / f->P[1] >= 2, f->comm, PETSC_ERR_ARG_SIZ,
             "%s: fewer than 2 z points per rank in the z group: %" PetscInt_FMT " z points over pz = %" PetscInt_FMT " ranks of pencil grid %" PetscInt_FMT " x %" PetscInt_FMT "; use fewer ranks along z (%s py,pz)", PPEFFTPTDMAName(f), N[2],
             f->P[1], f->P[0], f->P[1], PPEFFTPTDMAOptionName(f, PPE_FFT_OPTION_PGRID));
  if (f->zsolve == PPE_FFT_ZSOLVE_TRANSPOSE && f->flat) /* z-pencils split x (whole complex values with r2c) */
    PetscCheck(f->P[1] <= N[0] / 2, f->comm, PETSC_ERR_ARG_SIZ, "%s: zsolve transpose of a 2D problem splits x over pz = %" PetscInt_FMT " ranks but nx = %" PetscInt_FMT " (needs pz <= nx/2)", PPEFFTPTDMAName(f), f->P[1], N[0]);
  else if (f->zsolve == PPE_FFT_ZSOLVE_TRANSPOSE) PetscCheck(f->P[1] <= N[1], f->comm, PETSC_ERR_ARG_SIZ, "%s: zsolve transpose splits y over pz = %" PetscInt_FMT " ranks but ny = %" PetscInt_FMT, PPEFFTPTDMAName(f), f->P[1], N[1]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Which directions take FFTW's r2c/c2r (complex spectra, SIMD codelets) instead of the
   halfcomplex R2HC/HC2R kinds: host only, and only where every rank keeps a whole complex
   value and at least one of them (x: py <= nx/2 + 1; y: pz <= ny/2 + 1 for the transpose z
   method, which splits the spectral y over the z group). */
static void ChooseTransforms(PPEFFTPTDMA *f)
{
  PetscBool px = (PetscBool)(f->kind[0].fwd == FFTW_R2HC), py = (PetscBool)(f->kind[1].fwd == FFTW_R2HC);

  f->cplx[0] = f->cplx[1] = f->ydft = PETSC_FALSE;
  if (f->fftw && f->r2c) {
    if (px && f->P[0] <= f->N[0] / 2 + 1) {
      f->cplx[0] = PETSC_TRUE;
      f->ydft    = py;
    } else if (py && !px && (f->zsolve != PPE_FFT_ZSOLVE_TRANSPOSE || f->P[1] <= f->N[1] / 2 + 1)) f->cplx[1] = PETSC_TRUE;
  }
  f->Ns[0] = f->cplx[0] ? 2 * (f->N[0] / 2 + 1) : (f->cplx[1] ? 2 * f->N[0] : f->N[0]);
  f->Ns[1] = f->cplx[1] ? f->N[1] / 2 + 1 : f->N[1];
}

/* A row scale that depends on z only (cell volumes of a grid uniform in x and y: the
   x and y factors are constant) is folded into the z systems, W (sigma + Lx + Ly + Lz) u =
   rhs becomes, per (kx,ky) line, W_z (Lz + lambda) u = rhs: the right-hand side is then
   transformed as it is, without a division pass. f->wz holds the scale per z plane of the
   box; it stays NULL when there is no row scale or it varies in x or y (by more than
   PPE_FFT_ZONLY_RTOL relative within a z plane). */
/* Spread of a z-only row scale within a z plane: cell volumes wx wy wz with constant wx wy
   agree to a rounding or two (1e-16 each); a scale that varies more would be folded wrongly. */
#define PPE_FFT_ZONLY_RTOL 1e-14
static PetscErrorCode ZOnlyRowScale(PPEFFTPTDMA *f, DM da, const PPESeparable *sep)
{
  PetscInt           xs, ys, zs, xm, ym, zm, nz = sep->n[2];
  PetscReal         *ext;
  const PetscScalar *s;
  PetscBool          zonly = PETSC_TRUE;
  PetscMPIInt        next;
  PPEDMDABox         b;

  PetscFunctionBegin;
  if (!sep->rowscale) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(2 * nz, &ext)); /* per plane: -min, then max */
  for (PetscInt k = 0; k < 2 * nz; k++) ext[k] = PETSC_MIN_REAL;
  PetscCall(PPEDMDAGetBox(da, &b));
  xs = b.s[0], ys = b.s[1], zs = b.s[2], xm = b.m[0], ym = b.m[1], zm = b.m[2];
  PetscCall(VecGetArrayRead(sep->rowscale, &s));
  for (PetscInt k = zs; k < zs + zm; k++) {
    PetscInt kb = k - sep->lo[2];
    if (kb < 0 || kb >= nz) continue;
    for (PetscInt j = PetscMax(ys, sep->lo[1]); j < PetscMin(ys + ym, sep->lo[1] + sep->n[1]); j++)
      for (PetscInt i = PetscMax(xs, sep->lo[0]); i < PetscMin(xs + xm, sep->lo[0] + sep->n[0]); i++) {
        PetscReal v  = PetscRealPart(s[(i - xs) + xm * ((j - ys) + ym * (k - zs))]);
        ext[kb]      = PetscMax(ext[kb], -v);
        ext[nz + kb] = PetscMax(ext[nz + kb], v);
      }
  }
  PetscCall(VecRestoreArrayRead(sep->rowscale, &s));
  PetscCall(PetscMPIIntCast(2 * nz, &next));
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, ext, next, MPIU_REAL, MPIU_MAX, f->comm));
  for (PetscInt k = 0; k < nz; k++) zonly = (PetscBool)(zonly && -ext[k] > 0 && ext[nz + k] + ext[k] <= PPE_FFT_ZONLY_RTOL * ext[nz + k]);
  if (zonly) {
    PetscCall(PetscMalloc1(nz, &f->wz));
    for (PetscInt k = 0; k < nz; k++) f->wz[k] = ext[nz + k];
  }
  PetscCall(PetscFree(ext));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetUpZ(PPEFFTPTDMA *f, const PPESeparable *sep)
{
  PetscBool        inplace = (PetscBool)(f->zsolve != PPE_FFT_ZSOLVE_TRANSPOSE);
  const PPEBox    *box     = inplace ? &f->sbox : &f->zbox;
  PetscInt         nsys = box->n[0] * box->n[1], m = box->n[2], zs = box->lo[2], pin[2] = {0, 1}, npin = 0;
  PetscReal       *a, *b, *c, *shift, *w, S = f->scale;
  PPETridiagMethod method;

  PetscFunctionBegin;
  PetscCall(PPETridiagCreate(inplace ? f->zcomm : PETSC_COMM_SELF, &f->td));
  PetscCall(PPETridiagSetSizes(f->td, nsys, m));
  PetscCall(PPETridiagSetMethodOptionName(f->td, PPEFFTPTDMAOptionName(f, PPE_FFT_OPTION_ZSOLVE)));
  PetscCall(PPETridiagSetBackend(f->td, f->backend));
  PetscCall(PetscMalloc5(m, &a, m, &b, m, &c, nsys, &shift, m, &w));
  for (PetscInt k = 0; k < m; k++) {
    w[k] = f->wz ? f->wz[zs + k] : 1.0; /* row k scaled by the z-only row scale, and its shift weighted by it */
    a[k] = -S * w[k] * sep->zlo[zs + k];
    b[k] = S * w[k] * sep->zdi[zs + k];
    c[k] = -S * w[k] * sep->zhi[zs + k];
  }
  for (PetscInt j = 0; j < box->n[1]; j++)
    for (PetscInt i = 0; i < box->n[0]; i++) shift[i + box->n[0] * j] = S * (f->lam[0][box->lo[0] + i] + f->lam[1][box->lo[1] + j] + sep->sigma);
  PetscCall(PPETridiagSetPeriodic(f->td, (PetscBool)(sep->bc[4] == PPE_BC_PERIODIC)));
  PetscCall(PPETridiagSetCoefficients(f->td, a, b, c));
  PetscCall(PPETridiagSetShift(f->td, shift, w));
  PetscCall(PetscFree5(a, b, c, shift, w)); /* copied by the batch; freed before a set-up that may fail */
  /* the zero mode (kx, ky) = (0, 0) of a singular operator: pinned on purpose; line 0 is
     (kx, ky) = (0, 0) and every rank of the z group has it; with complex spectra line 1 is its
     imaginary part (zero data, the same singular matrix) */
  if (f->singular && box->lo[0] == 0 && box->lo[1] == 0) npin = (f->cplx[0] || f->cplx[1]) ? 2 : 1;
  PetscCall(PPETridiagSetPinnedLines(f->td, npin, pin));
  switch (f->zsolve) {
  case PPE_FFT_ZSOLVE_PTDMA:
    method = PPE_TRIDIAG_PTDMA;
    break;
  case PPE_FFT_ZSOLVE_DISTD2:
    method = PPE_TRIDIAG_DISTD2;
    break;
  case PPE_FFT_ZSOLVE_TRANSPOSE:
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

/* The (0,0) z line W_z Lz is symmetric when each coupling and its transpose agree to this,
   relative: computed from both sides of a face they differ by roundings (1e-16 each), while a
   row scale that breaks the symmetry changes them at order one. */
#define PPE_FFT_SYM_RTOL 1e-13

/* The operator part of the set-up: eigenvalues in the transforms' output order, the z lines,
   the work vectors of the box and the row scaling. */
static PetscErrorCode SetUpOperator(PPEFFTPTDMA *f, DM da, const PPESeparable *sep)
{
  PetscFunctionBegin;
  f->singular = sep->singular;
  f->specmean = f->singular;
  for (int d = 0; d < 2; d++) /* periodic (R2HC) and cell Neumann (REDFT10): the backward transform of a mode other than 0 sums to 0 */
    f->specmean = (PetscBool)(f->specmean && (f->N[d] == 1 || f->kind[d].fwd == FFTW_R2HC || f->kind[d].fwd == FFTW_REDFT10));
  PetscCheck(!(f->singular && f->zsolve == PPE_FFT_ZSOLVE_DISTD2), f->comm, PETSC_ERR_ARG_INCOMP,
             "%s: %s distd2 cannot solve the pinned zero mode of a singular operator (no Dirichlet face, no shift); use ptdma or auto (auto runs DistD2 on every line where it is exact)", PPEFFTPTDMAName(f),
             PPEFFTPTDMAOptionName(f, PPE_FFT_OPTION_ZSOLVE));
  for (int d = 0; d < 2; d++) { /* per spectral slot: a complex value's real and imaginary parts share their wavenumber's */
    PetscReal *t;
    PetscBool  pairs = (PetscBool)(d == 0 && (f->cplx[0] || f->cplx[1]));
    PetscCall(PetscMalloc1(f->N[d], &t));
    if (f->N[d] == 1) t[0] = 0; /* a direction of one point (2D's y): no coupling */
    else PetscCall(PPEFFT1dEigenvalues(sep->loc[d], sep->bc[2 * d], sep->bc[2 * d + 1], f->N[d], sep->c[d], t));
    PetscCall(PetscMalloc1(f->Ns[d], &f->lam[d]));
    for (PetscInt s = 0; s < f->Ns[d]; s++) f->lam[d][s] = t[pairs ? s / 2 : s]; /* r2c: wavenumber k <= n/2 in slot k */
    PetscCall(PetscFree(t));
  }
  f->scale     = f->kind[0].norm * f->kind[1].norm;
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
    up          = (f->wz ? f->wz[k] : 1.0) * sep->zhi[k];
    dn          = (f->wz ? f->wz[k1] : 1.0) * sep->zlo[k1];
    f->specproj = (PetscBool)(PetscAbsReal(up - dn) <= PPE_FFT_SYM_RTOL * PetscMax(PetscAbsReal(up), PetscAbsReal(dn)));
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
  PetscCall(PPEFFTPTDMASetUpDevice(f)); /* a device back end's pencils, plans and copies of the above: now, not at the first application */
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
static PetscErrorCode LayoutKey(MPI_Comm comm, DM da, const PPESeparable *sep, const PetscInt pgrid[2], PPEFFTZSolve zsolve, PPEFFTPlanner planner, PPEBackend backend, PetscBool r2c, PPEFFTDCT dct, PetscInt key[])
{
  PetscInt    q = 0, c[6], pd[3];
  PetscMPIInt size;
  PPEDMDABox  b;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PPEDMDAGetBox(da, &b));
  for (int d = 0; d < 3; d++) pd[d] = b.P[d], c[d] = b.s[d], c[3 + d] = b.m[d];
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
  key[q++] = r2c;
  key[q++] = dct;
  PetscCheck(q == PPE_FFTPTDMA_KEY, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Layout key has %" PetscInt_FMT " entries", q);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Validation: the DMDA against the description, the box of unknowns (>= 2 points per
   direction, but the one y point of a 2D DMDA), the BC pairs; the 1D transform kinds of x and
   y (a direction of one point: the identity, a DHT of one point, for which no plan is made). */
static PetscErrorCode CheckBox(PPEFFTPTDMA *f, const PPEDMDABox *box, const PPESeparable *sep)
{
  const PetscInt *M    = box->N;
  MPI_Comm        comm = f->comm;

  PetscFunctionBegin;
  f->flat = (PetscBool)(M[1] == 1 && sep->n[1] == 1);
  for (int d = 0; d < 3; d++) {
    PetscCheck(M[d] == sep->M[d], comm, PETSC_ERR_ARG_INCOMP, "%s: the DMDA has %" PetscInt_FMT " points along %c but the operator description %" PetscInt_FMT, PPEFFTPTDMAName(f), M[d], "xyz"[d], sep -> M[d]);
    f->N[d] = sep->n[d];
    PetscCheck((sep->n[d] >= 2 || (d == 1 && f->flat)) && sep->lo[d] >= 0 && sep->lo[d] + sep->n[d] <= M[d], comm, PETSC_ERR_ARG_OUTOFRANGE,
               "%s: box of unknowns [%" PetscInt_FMT ", %" PetscInt_FMT ") along %c does not fit the DMDA (%" PetscInt_FMT " points) or has fewer than 2 points", PPEFFTPTDMAName(f), sep->lo[d], sep->lo[d] + sep->n[d], "xyz"[d], M[d]);
  }
  PetscCheck((sep->bc[4] == PPE_BC_PERIODIC) == (sep->bc[5] == PPE_BC_PERIODIC), comm, PETSC_ERR_SUP, "%s: z BC pair %s-%s is not supported: periodic needs both faces", PPEFFTPTDMAName(f), PPEBCTypes[sep->bc[4]], PPEBCTypes[sep->bc[5]]);
  for (int d = 0; d < 2; d++) {
    PetscCheck((sep->bc[2 * d] == PPE_BC_PERIODIC) == (sep->bc[2 * d + 1] == PPE_BC_PERIODIC), comm, PETSC_ERR_SUP,
               "%s: %c BC pair %s-%s is not supported: periodic needs both faces (supported: periodic-periodic and any pair of neumann and dirichlet)", PPEFFTPTDMAName(f), "xy"[d], PPEBCTypes[sep->bc[2 * d]], PPEBCTypes[sep->bc[2 * d + 1]]);
    if (f->N[d] == 1) f->kind[d] = (PPEFFT1dKind){FFTW_DHT, FFTW_DHT, 1.0, "identity (one point)"};
    else PetscCall(PPEFFT1dGetKind(sep->loc[d], sep->bc[2 * d], sep->bc[2 * d + 1], f->N[d], &f->kind[d]));
  }
  f->box = (PetscBool)(sep->idiag != NULL);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Geometry: this rank's boxes. The x-pencil's data (the DMDA's own boxes when they are
   x-pencils of the pencil grid, else block splits of y and z), the x-pencil's array (padded
   for the in-place r2c), the y-pencil (x split into whole complex values after an r2c), the
   spectral y-pencil, the z-pencil (the spectral y split over the z group; x when y has one
   point, in whole complex values after an r2c so that the pinned lines 0 and 1 stay
   together) and the DMDA's array. */
static PetscErrorCode PencilBoxes(PPEFFTPTDMA *f, const PPEDMDABox *box, const PPESeparable *sep)
{
  const PetscInt *pd = box->P, *const *lr = box->own;
  int             sd;
  PetscInt        u;

  PetscFunctionBegin;
  f->daaligned = (PetscBool)(pd[0] == 1 && pd[1] == f->P[0] && pd[2] == f->P[1] && !f->box);
  for (int d = 0; d < 3; d++) f->daaligned = (PetscBool)(f->daaligned && sep->n[d] == box->N[d]);
  f->xdata = (PPEBox){
    {0,       0, 0},
    {f->N[0], 0, 0}
  };
  for (int d = 1; d < 3; d++) {
    if (f->daaligned) {
      for (PetscInt q = 0; q < f->r[d - 1]; q++) f->xdata.lo[d] += lr[d][q];
      f->xdata.n[d] = lr[d][f->r[d - 1]];
    } else PPEBlockSplit(f->N[d], f->P[d - 1], f->r[d - 1], &f->xdata.lo[d], &f->xdata.n[d]);
  }
  PetscCheck(f->xdata.n[2] >= 2 || f->P[1] == 1, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "%s: fewer than 2 z points on rank %d of the z group (DMDA z ownership)", PPEFFTPTDMAName(f), (int)f->rank);
  f->xbox = f->xdata;
  if (f->cplx[0]) f->xbox.n[0] = f->Ns[0]; /* lines padded for the in-place r2c */
  u       = f->cplx[0] ? 2 : 1;            /* y-pencils: whole complex values of x */
  f->ybox = f->xbox;
  PPEBlockSplit(f->cplx[0] ? f->N[0] / 2 + 1 : f->N[0], f->P[0], f->r[0], &f->ybox.lo[0], &f->ybox.n[0]);
  f->ybox.lo[0] *= u;
  f->ybox.n[0] *= u;
  f->ybox.lo[1] = 0;
  f->ybox.n[1]  = f->N[1];
  f->sbox       = f->ybox;
  if (f->cplx[1]) { /* after the y r2c: {real, imaginary} x local x x ky */
    f->sbox.lo[0] = 2 * f->ybox.lo[0];
    f->sbox.n[0]  = 2 * f->ybox.n[0];
    f->sbox.n[1]  = f->Ns[1];
  }
  sd      = f->sbox.n[1] > 1 ? 1 : 0; /* the direction the z-pencils split */
  u       = sd == 0 && f->cplx[0] ? 2 : 1;
  f->zbox = f->sbox;
  PPEBlockSplit(f->sbox.n[sd] / u, f->P[1], f->r[1], &f->zbox.lo[sd], &f->zbox.n[sd]);
  f->zbox.lo[sd] = f->sbox.lo[sd] + u * f->zbox.lo[sd];
  f->zbox.n[sd] *= u;
  f->zbox.lo[2] = 0;
  f->zbox.n[2]  = f->N[2];
  for (int d = 0; d < 3; d++) {
    f->dabox.lo[d] = box->s[d] - sep->lo[d];
    f->dabox.n[d]  = box->m[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Allocation: the groups of the pencil grid, the exchanges between the layouts (DMDA <->
   x-pencils, x <-> y when py > 1, y <-> z for the transpose z method when pz > 1) and the
   pencil arrays (shared where no exchange or transform separates them). */
static PetscErrorCode CreatePencils(PPEFFTPTDMA *f)
{
  PetscMPIInt r[2]; /* this rank's pencil-grid coordinates, as MPI colour and key */
  PPEBox      whole =
           {
             {0,       0,       0      },
             {f->N[0], f->N[1], f->N[2]}
  },
         dadata;

  PetscFunctionBegin;
  PetscCall(PetscMPIIntCast(f->r[0], &r[0]));
  PetscCall(PetscMPIIntCast(f->r[1], &r[1]));
  PetscCallMPI(MPI_Comm_split(f->comm, r[1], r[0], &f->xycomm));
  PetscCallMPI(MPI_Comm_split(f->comm, r[0], r[1], &f->zcomm));
  PPEBoxIntersect(&f->dabox, &whole, &dadata);
  PetscCall(PPETransposeCreate(f->comm, &dadata, &f->dabox, &f->xdata, &f->xbox, PPE_FFTPTDMATransDA, &f->tda));
  PetscCall(PetscMalloc1(PPEBoxSize(&f->xbox), &f->xbuf));
  if (f->P[0] > 1) {
    PetscCall(PetscMalloc1(PPEBoxSize(&f->ybox), &f->ybuf));
    PetscCall(PPETransposeCreate(f->xycomm, &f->xbox, &f->xbox, &f->ybox, &f->ybox, PPE_FFTPTDMATransXY, &f->txy));
  } else f->ybuf = f->xbuf;
  if (f->cplx[1]) PetscCall(PetscMalloc1(PPEBoxSize(&f->sbox), &f->sbuf));
  else f->sbuf = f->ybuf;
  if (f->zsolve == PPE_FFT_ZSOLVE_TRANSPOSE && f->P[1] > 1) {
    PetscCall(PetscMalloc1(PPEBoxSize(&f->zbox), &f->zbuf));
    PetscCall(PPETransposeCreate(f->zcomm, &f->sbox, &f->sbox, &f->zbox, &f->zbox, PPE_FFTPTDMATransYZ, &f->tyz));
  } else f->zbuf = f->sbuf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the layout built for key can be kept (on every rank): then only the operator part
   is redone. */
static PetscErrorCode KeepLayout(PPEFFTPTDMA *f, MPI_Comm comm, const PetscInt key[], PetscBool *same)
{
  PetscFunctionBegin;
  *same = (PetscBool)(f->xbuf && f->comm == comm);
  if (!*same) PetscFunctionReturn(PETSC_SUCCESS); /* the same on every rank: a layout is built collectively */
  for (int q = 0; q < PPE_FFTPTDMA_KEY; q++) *same = (PetscBool)(*same && key[q] == f->key[q]);
  PetscCall(MPIU_Allreduce(MPI_IN_PLACE, same, 1, PPE_MPI_BOOL, MPI_LAND, comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEFFTPTDMASetUp(PPEFFTPTDMA *f, MPI_Comm comm, DM da, const PPESeparable *sep, const PetscInt pgrid[2], PPEFFTZSolve zsolve, PPEFFTPlanner planner, PetscBool r2c, PPEFFTDCT dct, const char wisdom[])
{
  PetscInt             key[PPE_FFTPTDMA_KEY];
  PPEBackend           backend;
  PPEDMDABox           box; /* the kernels' 3D view of the DMDA */
  const PPEBackendOps *ops;
  PetscBool            same;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(PPE_FFTPTDMASetUp, 0, 0, 0, 0));
  PetscCall(PPEFFTPTDMACheckDM(PPEFFTPTDMAName(f), da, "the operator"));
  PetscCall(PPEBackendGetDefault(comm, &backend)); /* -ppe_backend: the transforms, the copies and the z solve */
  PetscCall(LayoutKey(comm, da, sep, pgrid, zsolve, planner, backend, r2c, dct, key));
  PetscCall(KeepLayout(f, comm, key, &same));
  if (same) { /* same pencils, transposes and plans: only the operator part is redone */
    PetscCall(ResetOperator(f));
    f->relayouts++;
    f->solves    = 0;
    f->tda.bytes = f->txy.bytes = f->tyz.bytes = 0;
  } else {
    PetscCall(PPEFFTPTDMAReset(f));
    for (int q = 0; q < PPE_FFTPTDMA_KEY; q++) f->key[q] = key[q];
    f->comm    = comm;
    f->zsolve  = zsolve;
    f->planner = planner;
    f->backend = backend;
    f->r2c     = r2c;
    f->dct     = dct;
    PetscCall(PPEBackendGetOps(backend, &ops));
    f->fftw = (PetscBool)!ops->fft_plan;
    PetscCall(PetscStrncpy(f->wisdomfile, wisdom ? wisdom : "", sizeof(f->wisdomfile)));
    PetscCallMPI(MPI_Comm_size(comm, &f->size));
    PetscCallMPI(MPI_Comm_rank(comm, &f->rank));
    PetscCall(PPEDMDAGetBox(da, &box));
    PetscCall(CheckBox(f, &box, sep));
    PetscCall(ChoosePencilGrid(f, pgrid, box.P[2]));
    f->r[0] = f->rank % f->P[0];
    f->r[1] = f->rank / f->P[0];
    ChooseTransforms(f);
    PetscCall(PencilBoxes(f, &box, sep));
    PetscCall(CreatePencils(f));
    PetscCall(PPEFFTPTDMACreatePlans(f));
  }
  PetscCall(SetUpOperator(f, da, sep));
  PetscCall(PetscLogEventEnd(PPE_FFTPTDMASetUp, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEFFTPTDMAReset(PPEFFTPTDMA *f)
{
  char optname[PPE_FFT_OPTION_NUM][64], name[64]; /* settings' and solver's names: not made by the set-up, kept */

  PetscFunctionBegin;
  PetscCall(PetscMemcpy(optname, f->optname, sizeof(optname)));
  PetscCall(PetscMemcpy(name, f->name, sizeof(name)));
  for (int s = 0; s < 2; s++) {
    PPEFFTBatchDestroy(&f->fx[s]);
    PPEFFTBatchDestroy(&f->fy[s]);
    PPEFFTBatchDestroy(&f->fxd[s]);
  }
  PetscCall(PPEFFTPTDMADestroyFast(f));
  if (f->zbuf && f->zbuf != f->sbuf) PetscCall(PetscFree(f->zbuf));
  if (f->sbuf && f->sbuf != f->ybuf) PetscCall(PetscFree(f->sbuf));
  if (f->ybuf && f->ybuf != f->xbuf) PetscCall(PetscFree(f->ybuf));
  PetscCall(PetscFree(f->xbuf));
  if (f->tda.abox) PetscCall(PPETransposeReset(&f->tda));
  if (f->txy.abox) PetscCall(PPETransposeReset(&f->txy));
  if (f->tyz.abox) PetscCall(PPETransposeReset(&f->tyz));
  if (f->xycomm != MPI_COMM_NULL && f->xycomm) PetscCallMPI(MPI_Comm_free(&f->xycomm));
  if (f->zcomm != MPI_COMM_NULL && f->zcomm) PetscCallMPI(MPI_Comm_free(&f->zcomm));
  PetscCall(ResetOperator(f));
  PetscCall(PetscMemzero(f, sizeof(*f)));
  PetscCall(PetscMemcpy(f->optname, optname, sizeof(optname)));
  PetscCall(PetscMemcpy(f->name, name, sizeof(name)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
