static const char help[] = "The stencil operator on a device back end against the host: MatMult (overlap on\n\
and off), the rank-local block, the fused apply + dot products, and PC chebyci's fused\n\
Chebyshev step (modes global, block, nocomm), for BC sets x locations x z spacings.\n\
  -backend NAME   device back end to compare (default: emu)\n\
  -n nx,ny,nz     grid size (default 13,11,9)\n\n";

#include <ppekit.h>
#include "tap.h"
#include <petscdmda.h>
#include "vecutil.h"

/* PC chebyci applied with the operator A: z = M^-1 r */
static PetscErrorCode ChebyApply(Mat A, const char mode[], Vec r, Vec z)
{
  PC pc;

  PetscFunctionBegin;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)A), &pc));
  PetscCall(PCSetType(pc, PCCHEBYCI));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PetscOptionsSetValue(NULL, "-pc_chebyci_mode", mode));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PetscOptionsClearValue(NULL, "-pc_chebyci_mode"));
  PetscCall(PCSetUp(pc));
  PetscCall(PCApply(pc, r, z));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Both operators get the same density, jumps of ratio (variable coefficients), when ratio > 0. */
static PetscErrorCode SetDensity(PPEGrid g, PetscReal ratio, Mat A, Mat B)
{
  DM           da;
  Vec          rho;
  PetscScalar *a;
  PetscInt     lo, hi;

  PetscFunctionBegin;
  if (ratio <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PPEGridGetDM(g, &da));
  PetscCall(DMCreateGlobalVector(da, &rho));
  PetscCall(VecGetOwnershipRange(rho, &lo, &hi));
  PetscCall(VecGetArray(rho, &a));
  for (PetscInt i = lo; i < hi; i++) a[i - lo] = (i * 7919) % 5 < 2 ? ratio : 1.0 + 0.1 * (i % 3);
  PetscCall(VecRestoreArray(rho, &a));
  PetscCall(PPEStencilSetDensity(A, rho));
  PetscCall(PPEStencilSetDensity(B, rho));
  PetscCall(VecDestroy(&rho));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckCase(MPI_Comm comm, PPEBackend be, const char bcs[], PPELocation loc, PetscBool stretch, PetscReal shift, PetscReal ratio, const PetscInt n[3])
{
  PPEGrid     g;
  Mat         Ah, Ad;
  Vec         x, z, yh, yd;
  PetscRandom rnd;
  PetscBool   eq;
  PetscScalar dh[2], dd[2];
  Vec         u[2];
  PetscReal   rel = 0.0;
  char        tag[128];
  const char *modes[3] = {"global", "block", "nocomm"};

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(tag, sizeof(tag), "%s %s %s%s%s", bcs, PPELocations[loc], stretch ? "tanh" : "uniform", shift > 0 ? " shift" : "", ratio > 0 ? " variable density" : ""));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetSizes(g, n[0], n[1], n[2]));
  PetscCall(PPEGridSetLengths(g, 1.0, 1.7, 0.8));
  PetscCall(PPEGridSetBCString(g, bcs));
  PetscCall(PPEGridSetLocation(g, loc));
  if (stretch) PetscCall(PPEGridSetZStretch(g, PPE_STRETCH_TANH, 2.0));
  PetscCall(PPEGridSetShift(g, shift));
  PetscCall(PPEGridSetUp(g));
  PetscCall(PPEStencilCreate(g, &Ah));
  PetscCall(PPEStencilSetBackend(Ah, PPE_BACKEND_HOST));
  PetscCall(PPEStencilCreate(g, &Ad));
  PetscCall(PPEStencilSetBackend(Ad, be));
  PetscCall(SetDensity(g, ratio, Ah, Ad));
  PetscCall(MatCreateVecs(Ah, &x, &yh));
  PetscCall(VecDuplicate(x, &yd));
  PetscCall(VecDuplicate(x, &z));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 191));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(z, rnd));

  /* MatMult, overlap on and off, twice (the device data are reused) */
  PetscCall(MatMult(Ah, x, yh));
  PetscCall(MatMult(Ad, z, yd));
  PetscCall(MatMult(Ad, x, yd));
  PetscCall(TestBitwiseEqual(yd, yh, &eq));
  PetscCall(PPEStencilSetOverlap(Ad, PETSC_FALSE));
  PetscCall(VecSet(yd, 0.0));
  PetscCall(MatMult(Ad, x, yd));
  PetscCall(PPEStencilSetOverlap(Ad, PETSC_TRUE));
  {
    PetscBool eq2;
    PetscCall(TestBitwiseEqual(yd, yh, &eq2));
    eq = (PetscBool)(eq && eq2);
  }
  PetscCall(TapCheck(comm, eq, "%s: %s MatMult bitwise equal to the host's (overlap on, off)", tag, PPEBackends[be]));

  /* the rank-local block */
  PetscCall(PPEStencilMultLocal(Ah, x, yh));
  PetscCall(PPEStencilMultLocal(Ad, x, yd));
  PetscCall(TestBitwiseEqual(yd, yh, &eq));
  PetscCall(TapCheck(comm, eq, "%s: %s local block bitwise equal to the host's", tag, PPEBackends[be]));

  /* fused apply + dots: y and the local dots bitwise (the device sums the rows of the box in
     the host's order) */
  u[0] = z;
  u[1] = yh;
  PetscCall(PPEStencilMultDot(Ah, x, yh, 2, u, dh));
  u[1] = yd;
  PetscCall(PPEStencilMultDot(Ad, x, yd, 2, u, dd));
  PetscCall(TestBitwiseEqual(yd, yh, &eq));
  {
    PetscMPIInt same = 1, all;
    for (int q = 0; q < 2; q++) {
      rel = PetscMax(rel, PetscAbsScalar(dd[q] - dh[q]) / PetscMax(PetscAbsScalar(dh[q]), 1e-300));
      if (memcmp(&dd[q], &dh[q], sizeof(PetscScalar))) same = 0;
    }
    PetscCall(MPIU_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, comm));
    PetscCall(MPIU_Allreduce(MPI_IN_PLACE, &rel, 1, MPIU_REAL, MPIU_MAX, comm));
    PetscCall(TapCheck(comm, (PetscBool)(eq && all), "%s: %s apply + 2 dots: y bitwise equal to the host's: %s, the local dots: %s (want yes, yes; largest relative difference of the dots %.1e)", tag, PPEBackends[be], eq ? "yes" : "no",
                       all ? "yes" : "no", (double)rel));
  }

  /* PC chebyci: the fused Chebyshev step on the device */
  for (int m = 0; m < 3; m++) {
    PetscCall(ChebyApply(Ah, modes[m], x, yh));
    PetscCall(ChebyApply(Ad, modes[m], x, yd));
    PetscCall(TestBitwiseEqual(yd, yh, &eq));
    PetscCall(TapCheck(comm, eq, "%s: %s PC chebyci (%s) bitwise equal to the host's", tag, PPEBackends[be], modes[m]));
  }

  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&yh));
  PetscCall(VecDestroy(&yd));
  PetscCall(MatDestroy(&Ah));
  PetscCall(MatDestroy(&Ad));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt    n[3] = {13, 11, 9}, nn = 3;
  char        name[16] = "emu";
  PPEBackend  be;
  const char *bcs[4] = {"NNNNNN", "PPPPNN", "DDNNPP", "PPDDDN"};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-n", n, &nn, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-backend", name, sizeof(name), NULL));
  PetscCall(PPEBackendFromString(PETSC_COMM_WORLD, name, &be));
  PetscCall(PPEBackendCheck(PETSC_COMM_WORLD, be));
  for (int b = 0; b < 4; b++) {
    PetscCall(CheckCase(PETSC_COMM_WORLD, be, bcs[b], PPE_LOCATION_CELL, PETSC_FALSE, 0.0, 0.0, n));
    PetscCall(CheckCase(PETSC_COMM_WORLD, be, bcs[b], b % 2 ? PPE_LOCATION_VERTEX : PPE_LOCATION_CELL, PETSC_TRUE, b == 3 ? 0.5 : 0.0, 0.0, n));
    PetscCall(CheckCase(PETSC_COMM_WORLD, be, bcs[b], b % 2 ? PPE_LOCATION_CELL : PPE_LOCATION_VERTEX, (PetscBool)(b % 2), b == 2 ? 0.5 : 0.0, 1000.0, n)); /* variable coefficients */
  }
  PetscCall(PetscFinalize());
  return tap_failures ? 1 : 0;
}
