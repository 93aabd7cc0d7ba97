static const char help[] = "FFT kinds of PC fftptdma: for every location and BC pair, the forward\n\
transform diagonalises the unit second-difference matrix K with the eigenvalues in the\n\
order PPEFFT1dEigenvalues() gives them (F K B = norm Lambda), and B F = norm I.\n";

#include <ppekit/private/fftptdmaimpl.h>
#include "tap.h"

/* Dense K of separableimpl.h: unit spacing, end rows by location and BC. */
static void DenseK(PPELocation loc, PPEBCType lo, PPEBCType hi, PetscInt n, PetscReal *K)
{
  PetscBool cell = (PetscBool)(loc == PPE_LOCATION_CELL);

  for (PetscInt i = 0; i < n * n; i++) K[i] = 0;
  for (PetscInt i = 0; i < n; i++) {
    K[i * n + i] = 2;
    if (i > 0) K[i * n + i - 1] = -1;
    if (i < n - 1) K[i * n + i + 1] = -1;
  }
  if (lo == PPE_BC_PERIODIC) {
    K[0 * n + n - 1]   = -1;
    K[(n - 1) * n + 0] = -1;
    return;
  }
  /* lower end row 0 */
  if (lo == PPE_BC_NEUMANN) {
    K[0] = cell ? 1 : 2;
    K[1] = cell ? -1 : -2;
  } else K[0] = cell ? 3 : 2;
  if (hi == PPE_BC_NEUMANN) {
    K[(n - 1) * n + n - 1] = cell ? 1 : 2;
    K[(n - 1) * n + n - 2] = cell ? -1 : -2;
  } else K[(n - 1) * n + n - 1] = cell ? 3 : 2;
}

/* Dense matrix of an FFTW r2r kind: column j = transform of e_j. */
static PetscErrorCode DenseTransform(fftw_r2r_kind kind, PetscInt n, PetscReal *T)
{
  double   *v;
  fftw_plan p;
  int       ni = (int)n;

  PetscFunctionBegin;
  PetscCall(PetscMalloc1(n, &v));
  p = fftw_plan_r2r_1d(ni, v, v, kind, FFTW_ESTIMATE);
  for (PetscInt j = 0; j < n; j++) {
    for (PetscInt i = 0; i < n; i++) v[i] = (i == j);
    fftw_execute(p);
    for (PetscInt i = 0; i < n; i++) T[i * n + j] = v[i];
  }
  fftw_destroy_plan(p);
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
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
  const PetscInt sizes[3] = {5, 8, 16};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  for (int l = 0; l < 2; l++)
    for (int p = 0; p < 5; p++) {
      PetscReal    errd = 0, erri = 0, errs = 0;
      PPEFFT1dKind kind;

      for (int s = 0; s < 3; s++) {
        PetscInt   n = sizes[s];
        PetscReal *K, *F, *B, *FK, *D, *lam, scale = 0;

        PetscCall(PetscMalloc6(n * n, &K, n * n, &F, n * n, &B, n * n, &FK, n * n, &D, n, &lam));
        PetscCall(PPEFFT1dGetKind((PPELocation)l, pairs[p][0], pairs[p][1], n, &kind));
        PetscCall(PPEFFT1dEigenvalues((PPELocation)l, pairs[p][0], pairs[p][1], n, 1.0, lam));
        DenseK((PPELocation)l, pairs[p][0], pairs[p][1], n, K);
        PetscCall(DenseTransform(kind.fwd, n, F));
        PetscCall(DenseTransform(kind.bwd, n, B));
        for (PetscInt i = 0; i < n; i++)
          for (PetscInt j = 0; j < n; j++) {
            FK[i * n + j] = 0;
            for (PetscInt m = 0; m < n; m++) FK[i * n + j] += F[i * n + m] * K[m * n + j];
          }
        for (PetscInt i = 0; i < n; i++)
          for (PetscInt j = 0; j < n; j++) {
            PetscReal fkb = 0, bf = 0;
            for (PetscInt m = 0; m < n; m++) {
              fkb += FK[i * n + m] * B[m * n + j];
              bf += B[i * n + m] * F[m * n + j];
            }
            D[i * n + j] = fkb - (i == j ? kind.norm * lam[i] : 0.0);
            erri         = PetscMax(erri, PetscAbsReal(bf - (i == j ? kind.norm : 0.0)) / kind.norm);
            scale        = PetscMax(scale, kind.norm * lam[i]);
          }
        for (PetscInt i = 0; i < n * n; i++) errd = PetscMax(errd, PetscAbsReal(D[i]) / scale);
        /* the zero mode is exactly 0 for pairs without Dirichlet */
        if (pairs[p][0] != PPE_BC_DIRICHLET && pairs[p][1] != PPE_BC_DIRICHLET) errs = PetscMax(errs, PetscAbsReal(lam[0]));
        PetscCall(PetscFree6(K, F, B, FK, D, lam));
      }
      PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(errd < 1e-13 && erri < 1e-14 && errs == 0), "%s %s-%s %s: F K B = norm Lambda to %.1e (< 1e-13), B F = norm I to %.1e (< 1e-14), zero mode %g (want 0 without Dirichlet) (n = 5, 8, 16)",
                         PPELocations[l], PPEBCTypes[pairs[p][0]], PPEBCTypes[pairs[p][1]], kind.name, (double)errd, (double)erri, (double)errs));
    }
  /* periodic pairs only: a mixed periodic pair is refused with a clear message */
  {
    PPEFFT1dKind   kind;
    PetscErrorCode ierr;

    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = PPEFFT1dGetKind(PPE_LOCATION_CELL, PPE_BC_PERIODIC, PPE_BC_NEUMANN, 8, &kind);
    PetscCall(PetscPopErrorHandler());
    PetscCall(TapCheck(PETSC_COMM_WORLD, (PetscBool)(ierr == PETSC_ERR_SUP), "periodic-neumann is refused with PETSC_ERR_SUP"));
  }
  PetscCall(PetscFinalize());
  return tap_failures ? 1 : 0;
}
