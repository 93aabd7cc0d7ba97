/*
   One direction of a PPEGrid: mesh lines, coordinates, control volumes, the
   symmetric flux-form 1D operator and its eigenvalues.

   With unknowns u_0..u_{n-1}, distances dist(i,i+1) between neighbouring
   unknowns, control-volume widths cv_i and the reference spacing href = L/nint:

     (S u)_i = tlo_i (u_i - u_{i-1}) + thi_i (u_i - u_{i+1}) + tb_i u_i
     tlo_i = thi_{i-1} = 1 / (href dist(i-1,i)),   tb_i = 1 / (href dist(i, Dirichlet point))
     w_i = cv_i / href

   so that W^-1 S is the usual second-order -d2/dx2 and S is symmetric. On a
   uniform grid S = -d2/dx2 in the interior (w = 1); the generalised eigenvalues
   of (S, W) are the modified wavenumbers (4/h^2) sin^2(theta_k) of the
   transform that diagonalises the BC pair (DFT, DCT-I/II/III, DST-I/II/III).
*/
#include <ppekit/private/gridimpl.h>
#include <petscblaslapack.h>

/* Number of mesh intervals for n unknowns: the cell faces or mesh nodes are nint+1 lines. */
PetscErrorCode PPEGridNumIntervals(PPELocation loc, PPEBCType lo, PPEBCType hi, PetscInt n, PetscInt *nint)
{
  PetscFunctionBegin;
  if (loc == PPE_LOCATION_CELL || lo == PPE_BC_PERIODIC) *nint = n;
  else *nint = n - 1 + (lo == PPE_BC_DIRICHLET ? 1 : 0) + (hi == PPE_BC_DIRICHLET ? 1 : 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridEigenvalues1d - exact eigenvalues of the uniform 1D operator -d2/dx2 for a BC pair

   Not Collective

   Input Parameters:
+  loc - cell or vertex location
.  lo, hi - boundary conditions at the lower and upper end (periodic only in pairs)
.  n - number of unknowns
-  h - spacing

   Output Parameter:
.  lam - n eigenvalues (4/h^2) sin^2(theta_k), k = 0..n-1, in wavenumber order:
         periodic theta = pi k/nint; Neumann-Neumann pi k/(2 nint); Dirichlet-Dirichlet
         pi (k+1)/(2 nint); mixed pi (2k+1)/(4 nint), with nint the number of mesh intervals
         (n for cells; n-1, n or n+1 for vertices with 0, 1 or 2 Dirichlet ends).

   Level: intermediate

.seealso: PPEGridGetEigenvalues()
@*/
PetscErrorCode PPEGridEigenvalues1d(PPELocation loc, PPEBCType lo, PPEBCType hi, PetscInt n, PetscReal h, PetscReal lam[])
{
  PetscInt  nint;
  PetscReal c = 4.0 / (h * h);

  PetscFunctionBegin;
  PetscCheck((lo == PPE_BC_PERIODIC) == (hi == PPE_BC_PERIODIC), PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP, "Periodic boundary conditions come in pairs: got %s and %s", PPEBCTypes[lo], PPEBCTypes[hi]);
  PetscCall(PPEGridNumIntervals(loc, lo, hi, n, &nint));
  for (PetscInt k = 0; k < n; k++) {
    PetscReal theta;
    if (lo == PPE_BC_PERIODIC) theta = PETSC_PI * k / nint;
    else if (lo == PPE_BC_NEUMANN && hi == PPE_BC_NEUMANN) theta = PETSC_PI * k / (2.0 * nint);
    else if (lo == PPE_BC_DIRICHLET && hi == PPE_BC_DIRICHLET) theta = PETSC_PI * (k + 1) / (2.0 * nint);
    else theta = PETSC_PI * (2 * k + 1) / (4.0 * nint);
    lam[k] = c * PetscSqr(PetscSinReal(theta));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEGrid1dReset(PPEGrid1d *d)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(d->lines));
  PetscCall(PetscFree7(d->x, d->w, d->tlo, d->thi, d->tb, d->d, d->eig));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Mesh lines of the tanh clustering: dense at both ends, symmetric about the middle. */
static void TanhLines(PetscInt nint, PetscReal origin, PetscReal L, PetscReal beta, PetscReal *lines)
{
  for (PetscInt m = 0; m <= nint; m++) {
    PetscReal s = (PetscReal)m / nint;
    lines[m]    = origin + 0.5 * L * (1.0 + PetscTanhReal(beta * (2.0 * s - 1.0)) / PetscTanhReal(beta));
  }
  lines[0]    = origin;
  lines[nint] = origin + L;
}

/*
   Fill the 1D data of a direction whose n and bc[] are set. Lines come from the
   stretching (NONE, TANH with factor) or from the user (nuser = nint+1 values).
*/
PetscErrorCode PPEGrid1dSetUp(PPEGrid1d *d, PPELocation loc, PetscReal origin, PetscReal L, PPEStretchType stretch, PetscReal factor, PetscInt nuser, const PetscReal user[])
{
  PetscInt  n   = d->n, nint, first;
  PetscBool per = (PetscBool)(d->bc[0] == PPE_BC_PERIODIC), cell = (PetscBool)(loc == PPE_LOCATION_CELL);
  PetscReal h, *l, *cv, *dist; /* dist[i]: distance between unknown i and i+1 (i = n-1: periodic wrap) */
  PetscReal blo = 0, bhi = 0;  /* distance from the end unknowns to the Dirichlet points */

  PetscFunctionBegin;
  PetscCall(PPEGrid1dReset(d));
  PetscCall(PPEGridNumIntervals(loc, d->bc[0], d->bc[1], n, &nint));
  d->nint = nint;
  PetscCall(PetscMalloc1(nint + 1, &d->lines));
  PetscCall(PetscMalloc7(n, &d->x, n, &d->w, n, &d->tlo, n, &d->thi, n, &d->tb, n, &d->d, n, &d->eig));
  l = d->lines;
  if (stretch == PPE_STRETCH_USER) {
    PetscCheck(nuser == nint + 1, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Expected %" PetscInt_FMT " mesh lines for %" PetscInt_FMT " %s-centred unknowns with %s-%s ends, got %" PetscInt_FMT, nint + 1, n, cell ? "cell" : "vertex", PPEBCTypes[d->bc[0]],
               PPEBCTypes[d->bc[1]], nuser);
    for (PetscInt m = 0; m <= nint; m++) l[m] = user[m];
    for (PetscInt m = 0; m < nint; m++) PetscCheck(l[m + 1] > l[m], PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Mesh lines must increase strictly: line %" PetscInt_FMT " = %g, line %" PetscInt_FMT " = %g", m, (double)l[m], m + 1, (double)l[m + 1]);
    origin = l[0];
    L      = l[nint] - l[0];
  } else if (stretch == PPE_STRETCH_TANH) {
    TanhLines(nint, origin, L, factor, l);
  } else {
    for (PetscInt m = 0; m <= nint; m++) l[m] = origin + (L * m) / nint;
  }
  d->uniform = (PetscBool)(stretch == PPE_STRETCH_NONE);
  d->href = h = L / nint;
  d->bpos[0]  = l[0];
  d->bpos[1]  = l[nint];

  PetscCall(PetscMalloc2(n, &cv, n, &dist));
  first = (!cell && d->bc[0] == PPE_BC_DIRICHLET) ? 1 : 0; /* vertex: node index of unknown 0 */
  if (d->uniform) {
    /* Exact spacings, identical for every interior point (no rounding from coordinates). */
    for (PetscInt i = 0; i < n; i++) {
      d->x[i] = cell ? origin + (i + 0.5) * h : origin + (i + first) * h;
      cv[i]   = h;
      dist[i] = h;
    }
    if (!cell && !per) {
      if (d->bc[0] == PPE_BC_NEUMANN) cv[0] = 0.5 * h;
      if (d->bc[1] == PPE_BC_NEUMANN) cv[n - 1] = 0.5 * h;
    }
    blo = bhi = cell ? 0.5 * h : h;
  } else if (cell) {
    for (PetscInt i = 0; i < n; i++) {
      d->x[i] = 0.5 * (l[i] + l[i + 1]);
      cv[i]   = l[i + 1] - l[i];
    }
    for (PetscInt i = 0; i < n - 1; i++) dist[i] = d->x[i + 1] - d->x[i];
    blo         = d->x[0] - l[0];
    bhi         = l[n] - d->x[n - 1];
    dist[n - 1] = blo + bhi;
  } else {
    for (PetscInt i = 0; i < n; i++) {
      PetscInt m = i + first;
      d->x[i]    = l[m];
      if (m == 0) cv[i] = per ? 0.5 * (l[1] - l[0] + l[nint] - l[nint - 1]) : 0.5 * (l[1] - l[0]);
      else if (m == nint) cv[i] = 0.5 * (l[nint] - l[nint - 1]);
      else cv[i] = 0.5 * (l[m + 1] - l[m - 1]);
      dist[i] = (m < nint) ? l[m + 1] - l[m] : 0.0;
    }
    if (per) dist[n - 1] = l[nint] - l[nint - 1];
    blo = l[1] - l[0];
    bhi = l[nint] - l[nint - 1];
  }
  for (PetscInt i = 0; i < n; i++) {
    d->w[i]   = cv[i] / h;
    d->thi[i] = (i < n - 1 || per) ? 1.0 / (h * dist[i]) : 0.0;
    d->tb[i]  = 0.0;
  }
  for (PetscInt i = 0; i < n; i++) d->tlo[i] = (i > 0) ? d->thi[i - 1] : (per ? d->thi[n - 1] : 0.0);
  d->tbe[0] = d->bc[0] == PPE_BC_DIRICHLET ? 1.0 / (h * blo) : 0.0;
  d->tbe[1] = d->bc[1] == PPE_BC_DIRICHLET ? 1.0 / (h * bhi) : 0.0;
  d->tb[0]  = d->tbe[0];
  d->tb[n - 1] += d->tbe[1];
  for (PetscInt i = 0; i < n; i++) d->d[i] = d->tlo[i] + d->thi[i] + d->tb[i];
  PetscCall(PetscFree2(cv, dist));
  PetscCall(PPEGrid1dComputeEigenvalues(d, loc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An eigenvalue is the smallest one again (not the second smallest distinct one) when it
   exceeds it by at most this, relative: the closed forms and LAPACK give eigenvalues to a
   few roundings (1e-15 relative), so a repeated one agrees far better, while the two
   smallest distinct eigenvalues of a 1D operator differ by a factor of order one. */
#define PPE_GRID_EIG_SAME_RTOL 1e-12
/* ... and by at most this absolutely, for a smallest eigenvalue of 0 (singular operators),
   where the relative test alone would take an exact 0 for a distinct value: far below any
   nonzero eigenvalue of a grid, far above 0. */
#define PPE_GRID_EIG_SAME_ATOL 1e-300

/*
   Eigenvalues of W^-1 S: closed form on uniform grids, LAPACK otherwise (the symmetric
   W^-1/2 S W^-1/2 is tridiagonal, or tridiagonal plus corners when periodic).
*/
PetscErrorCode PPEGrid1dComputeEigenvalues(PPEGrid1d *d, PPELocation loc)
{
  PetscInt n = d->n;

  PetscFunctionBegin;
  if (d->uniform) {
    PetscCall(PPEGridEigenvalues1d(loc, d->bc[0], d->bc[1], n, d->href, d->eig));
  } else {
    PetscBLASInt bn, info, ld;
    PetscReal   *s;

    PetscCall(PetscBLASIntCast(n, &bn));
    ld = bn;
    if (d->bc[0] != PPE_BC_PERIODIC) {
      PetscReal   *e, *work = NULL;
      const char   compz = 'N';
      PetscBLASInt one   = 1;

      PetscCall(PetscMalloc1(n, &e));
      for (PetscInt i = 0; i < n; i++) d->eig[i] = d->d[i] / d->w[i];
      for (PetscInt i = 0; i < n - 1; i++) e[i] = -d->thi[i] / PetscSqrtReal(d->w[i] * d->w[i + 1]);
      PetscCallBLAS("LAPACKsteqr", LAPACKsteqr_(&compz, &bn, d->eig, e, NULL, &one, work, &info));
      PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK steqr failed with info %d computing the 1D eigenvalues", (int)info);
      PetscCall(PetscFree(e));
    } else {
      const char   jobz = 'N', uplo = 'L';
      PetscBLASInt lwork = 3 * bn;
      PetscReal   *work;

      PetscCall(PetscCalloc1((size_t)n * n, &s));
      PetscCall(PetscMalloc1(lwork, &work));
      for (PetscInt i = 0; i < n; i++) {
        PetscInt ip  = (i + 1) % n;
        s[i + i * n] = d->d[i] / d->w[i];
        s[ip + i * n] += -d->thi[i] / PetscSqrtReal(d->w[i] * d->w[ip]);
        s[i + ip * n] += -d->thi[i] / PetscSqrtReal(d->w[i] * d->w[ip]);
      }
      PetscCallBLAS("LAPACKsyev", LAPACKsyev_(&jobz, &uplo, &bn, s, &ld, d->eig, work, &lwork, &info));
      PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK syev failed with info %d computing the 1D eigenvalues", (int)info);
      PetscCall(PetscFree(work));
      PetscCall(PetscFree(s));
    }
    PetscCall(PetscSortReal(n, d->eig));
    /* Constants are in the kernel of S for periodic and Neumann-Neumann: make that exact. */
    if (d->bc[0] != PPE_BC_DIRICHLET && d->bc[1] != PPE_BC_DIRICHLET) d->eig[0] = 0.0;
  }
  d->eigmin = d->eigmax = d->eig[0];
  for (PetscInt i = 1; i < n; i++) {
    d->eigmin = PetscMin(d->eigmin, d->eig[i]);
    d->eigmax = PetscMax(d->eigmax, d->eig[i]);
  }
  /* Second smallest distinct value: the smallest nonzero one when the 1D operator is singular. */
  d->eigmin2 = PETSC_MAX_REAL;
  for (PetscInt i = 0; i < n; i++)
    if (d->eig[i] > d->eigmin * (1 + PPE_GRID_EIG_SAME_RTOL) + PPE_GRID_EIG_SAME_ATOL) d->eigmin2 = PetscMin(d->eigmin2, d->eig[i]);
  PetscFunctionReturn(PETSC_SUCCESS);
}
