static const char help[] = "Grid eigenvalues: the closed-form 1D eigenvalues of every BC pair and location\n\
against a dense LAPACK eigen-decomposition of the 1D operator the grid builds (n = 7, 8, 16);\n\
the LAPACK path of stretched directions against the dense one; the 3D operator bounds\n\
against the dense spectrum of the assembled operator. Runs on 1 rank.\n\n";

#include <ppekit.h>
#include <ppekit/private/gridimpl.h>
#include <petscblaslapack.h>
#include "tap.h"

/* Dense eigenvalues (ascending) of the symmetric W^-1/2 S W^-1/2 of a grid direction. */
static PetscErrorCode DenseEigen1d(const PPEGrid1d *d, PetscReal *lam)
{
  PetscInt     n = d->n;
  PetscBLASInt bn, lwork, info;
  PetscReal   *s, *work;
  const char   jobz = 'N', uplo = 'L';

  PetscFunctionBegin;
  PetscCall(PetscBLASIntCast(n, &bn));
  lwork = 4 * bn;
  PetscCall(PetscCalloc1((size_t)n * n, &s));
  PetscCall(PetscMalloc1(lwork, &work));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt ip = (i + 1) % n;
    s[i + i * n] += d->d[i] / d->w[i];
    if (i < n - 1 || d->bc[0] == PPE_BC_PERIODIC) {
      PetscReal v = -d->thi[i] / PetscSqrtReal(d->w[i] * d->w[ip]);
      s[ip + i * n] += v;
      s[i + ip * n] += v;
    }
  }
  PetscCallBLAS("LAPACKsyev", LAPACKsyev_(&jobz, &uplo, &bn, s, &bn, lam, work, &lwork, &info));
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "syev info %d", (int)info);
  PetscCall(PetscFree(work));
  PetscCall(PetscFree(s));
  PetscFunctionReturn(0);
}

static PetscReal MaxRelDiff(PetscInt n, const PetscReal *a, const PetscReal *b)
{
  PetscReal m = 0, s = 0;
  for (PetscInt i = 0; i < n; i++) {
    m = PetscMax(m, PetscAbsReal(a[i] - b[i]));
    s = PetscMax(s, PetscAbsReal(b[i]));
  }
  return m / s;
}

static PetscErrorCode MakeGrid(PPELocation loc, const PPEBCType bc[6], const PetscInt n[3], PPEStretchType st, PPEGrid *g)
{
  PetscFunctionBegin;
  PetscCall(PPEGridCreate(PETSC_COMM_SELF, g));
  PetscCall(PPEGridSetSizes(*g, n[0], n[1], n[2]));
  PetscCall(PPEGridSetLengths(*g, 1.3, 0.7, 2.1));
  PetscCall(PPEGridSetBCs(*g, bc));
  PetscCall(PPEGridSetLocation(*g, loc));
  if (st == PPE_STRETCH_TANH) PetscCall(PPEGridSetZStretch(*g, PPE_STRETCH_TANH, 1.8));
  PetscCall(PPEGridSetUp(*g));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  const PPEBCType pairs[5][2] = {
    {PPE_BC_PERIODIC,  PPE_BC_PERIODIC },
    {PPE_BC_NEUMANN,   PPE_BC_NEUMANN  },
    {PPE_BC_DIRICHLET, PPE_BC_DIRICHLET},
    {PPE_BC_NEUMANN,   PPE_BC_DIRICHLET},
    {PPE_BC_DIRICHLET, PPE_BC_NEUMANN  }
  };
  const PetscInt sizes[3] = {7, 8, 16};
  MPI_Comm       comm;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_SELF;
  PetscCall(PPEKitInitializePackage());

  /* 1. closed forms vs dense eigen-decomposition, every pair, location and size */
  for (int loc = 0; loc < 2; loc++)
    for (int p = 0; p < 5; p++)
      for (int s = 0; s < 3; s++) {
        PetscInt         n[3]  = {sizes[s], 3, 3};
        PPEBCType        bc[6] = {pairs[p][0], pairs[p][1], PPE_BC_NEUMANN, PPE_BC_NEUMANN, PPE_BC_NEUMANN, PPE_BC_NEUMANN};
        PPEGrid          g;
        PetscReal        dense[16], closed[16];
        const PetscReal *lam;

        PetscCall(MakeGrid((PPELocation)loc, bc, n, PPE_STRETCH_NONE, &g));
        PetscCall(DenseEigen1d(&g->dir[0], dense));
        PetscCall(PPEGridGetEigenvalues(g, 0, &lam));
        for (PetscInt i = 0; i < n[0]; i++) closed[i] = lam[i];
        PetscCall(PetscSortReal(n[0], closed));
        {
          PetscReal rel = MaxRelDiff(n[0], closed, dense);
          PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-12), "1D eigenvalues %s %s-%s n=%" PetscInt_FMT ": closed form vs LAPACK, max rel diff %.2e", PPELocations[loc], PPEBCTypes[pairs[p][0]], PPEBCTypes[pairs[p][1]], n[0], (double)rel));
        }
        PetscCall(PPEGridDestroy(&g));
      }

  /* 2. stretched z: the tridiagonal LAPACK path vs the dense one */
  for (int loc = 0; loc < 2; loc++)
    for (int p = 0; p < 5; p++) {
      PetscInt  n[3]  = {3, 3, 16};
      PPEBCType bc[6] = {PPE_BC_NEUMANN, PPE_BC_NEUMANN, PPE_BC_NEUMANN, PPE_BC_NEUMANN, pairs[p][0], pairs[p][1]};
      PPEGrid   g;
      PetscReal dense[16], rel;

      PetscCall(MakeGrid((PPELocation)loc, bc, n, PPE_STRETCH_TANH, &g));
      PetscCall(DenseEigen1d(&g->dir[2], dense));
      rel = MaxRelDiff(16, g->dir[2].eig, dense);
      PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-12), "stretched z eigenvalues %s %s-%s n=16: LAPACK tridiagonal vs dense, max rel diff %.2e", PPELocations[loc], PPEBCTypes[pairs[p][0]], PPEBCTypes[pairs[p][1]], (double)rel));
      PetscCall(PPEGridDestroy(&g));
    }

  /* 3. bounds of the 3D operator vs its dense spectrum */
  {
    const char *cases[] = {"PPPPPP", "NNNNNN", "DDDDDD", "PPPPNN", "DNNDND", "NDNDND"};
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
      for (int loc = 0; loc < 2; loc++)
        for (int st = 0; st < 2; st++) {
          PetscInt     n[3] = {5, 6, 7}, N = 5 * 6 * 7;
          PPEBCType    bc[6];
          PPEGrid      g;
          Mat          A, D;
          PetscReal   *lam, *work, lmin, lmax, tmin, tmax;
          PetscBool    exact, singular, ok;
          PetscScalar *a;
          PetscBLASInt bn, lwork, info;
          const char   jobz = 'N', uplo = 'L';

          PetscCall(PetscBLASIntCast(N, &bn));
          PetscCall(PetscBLASIntCast(4 * N, &lwork));
          PetscCall(PPEGridCreate(comm, &g));
          PetscCall(PPEGridSetBCString(g, cases[c]));
          for (int f = 0; f < 6; f++) PetscCall(PPEGridGetBC(g, (PPEFace)f, &bc[f]));
          PetscCall(PPEGridDestroy(&g));
          PetscCall(MakeGrid((PPELocation)loc, bc, n, st ? PPE_STRETCH_TANH : PPE_STRETCH_NONE, &g));
          PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &A));
          PetscCall(MatConvert(A, MATDENSE, MAT_INITIAL_MATRIX, &D));
          PetscCall(MatDenseGetArray(D, &a));
          PetscCall(PetscMalloc2(N, &lam, lwork, &work));
          PetscCallBLAS("LAPACKsyev", LAPACKsyev_(&jobz, &uplo, &bn, a, &bn, lam, work, &lwork, &info));
          PetscCall(MatDenseRestoreArray(D, &a));
          PetscCall(PPEGridGetOperatorBounds(g, &lmin, &lmax, &exact));
          PetscCall(PPEGridIsSingular(g, &singular));
          tmax = lam[N - 1];
          tmin = singular ? lam[1] : lam[0];
          if (exact) ok = (PetscBool)(PetscAbsReal(lmin - tmin) <= 1e-12 * tmax && PetscAbsReal(lmax - tmax) <= 1e-12 * tmax);
          else ok = (PetscBool)(lmin <= tmin * (1 + 1e-12) && lmax >= tmax * (1 - 1e-12) && lmin > 0);
          if (singular) ok = (PetscBool)(ok && PetscAbsReal(lam[0]) <= 1e-12 * tmax);
          PetscCall(TapCheck(comm, ok, "3D operator %s %s %s: %s [%.6g, %.6g], dense spectrum [%.6g, %.6g] (%s)%s, zero mode %.1e", cases[c], PPELocations[loc], st ? "tanh" : "uniform", exact ? "exact" : "bounds", (double)lmin, (double)lmax,
                             (double)tmin, (double)tmax, exact ? "want equal to 1e-12 of the largest" : "want them enclosed to 1e-12 relative, lower bound > 0", singular ? " (singular)" : "", singular ? (double)PetscAbsReal(lam[0]) / tmax : 0.0));
          PetscCall(PetscFree2(lam, work));
          PetscCall(MatDestroy(&D));
          PetscCall(MatDestroy(&A));
          PetscCall(PPEGridDestroy(&g));
        }
  }
  PetscCall(PetscFinalize());
  return 0;
}
