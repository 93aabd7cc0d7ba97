static const char help[] = "Matrix-free stencil vs its assembled AIJ twin, for BC sets x locations x z\n\
spacings on an odd-sized grid (uneven splits at every rank count): MatMult agreement,\n\
overlap on/off bitwise, symmetry x'Ay = y'Ax, MatMultTranspose, MatMultAdd, diagonal,\n\
null space; the rank-local block (MatGetDiagonalBlock) freed once, with its parent.\n\
  -n nx,ny,nz   grid size (default 13,11,9)\n\n";

#include <ppekit.h>
#include "tap.h"
#include "vecutil.h"

static PetscErrorCode CheckCase(MPI_Comm comm, const char bcs[], PPELocation loc, PetscBool stretch, PetscReal shift, const PetscInt n[3])
{
  PPEGrid      g;
  Mat          Amf, Aaij;
  Vec          x, y, y1, y2, z, w;
  PetscRandom  rnd;
  PetscReal    rel;
  PetscBool    eq, singular;
  PetscScalar  xay, yax;
  MatNullSpace nsp;
  char         tag[128];

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(tag, sizeof(tag), "%s %s %s%s", bcs, PPELocations[loc], stretch ? "tanh" : "uniform", shift > 0 ? " shift" : ""));
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetSizes(g, n[0], n[1], n[2]));
  PetscCall(PPEGridSetLengths(g, 1.0, 1.7, 0.8));
  PetscCall(PPEGridSetBCString(g, bcs));
  PetscCall(PPEGridSetLocation(g, loc));
  if (stretch) PetscCall(PPEGridSetZStretch(g, PPE_STRETCH_TANH, 2.0));
  PetscCall(PPEGridSetShift(g, shift));
  PetscCall(PPEGridSetUp(g));
  PetscCall(PPEGridIsSingular(g, &singular));
  PetscCall(PPEStencilCreate(g, &Amf));
  PetscCall(PPEStencilCreateAssembled(g, MATAIJ, &Aaij));
  PetscCall(MatCreateVecs(Amf, &x, &y));
  PetscCall(VecDuplicate(x, &y1));
  PetscCall(VecDuplicate(x, &y2));
  PetscCall(VecDuplicate(x, &z));
  PetscCall(VecDuplicate(x, &w));
  PetscCall(PetscRandomCreate(comm, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 42));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(z, rnd));

  /* matrix-free vs AIJ */
  PetscCall(MatMult(Amf, x, y1));
  PetscCall(MatMult(Aaij, x, y2));
  rel = TestRelDiffNorm(y1, y2, NORM_INFINITY);
  PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-13), "%s: matfree vs AIJ MatMult, rel diff %.2e", tag, (double)rel));

  /* overlap off: bitwise the same */
  PetscCall(PPEStencilSetOverlap(Amf, PETSC_FALSE));
  PetscCall(MatMult(Amf, x, y));
  PetscCall(TestBitwiseEqual(y, y1, &eq));
  PetscCall(TapCheck(comm, eq, "%s: overlap off vs on bitwise identical", tag));
  PetscCall(PPEStencilSetOverlap(Amf, PETSC_TRUE));

  /* symmetry: x'Az = z'Ax */
  PetscCall(MatMult(Amf, z, y));
  PetscCall(VecDot(x, y, &xay));
  PetscCall(VecDot(z, y1, &yax));
  rel = PetscAbsScalar(xay - yax) / PetscMax(PetscAbsScalar(xay), PetscAbsScalar(yax));
  PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-12), "%s: x'Az = z'Ax, rel diff %.2e", tag, (double)rel));

  /* transpose and multadd */
  PetscCall(MatMultTranspose(Amf, x, y));
  PetscCall(TestBitwiseEqual(y, y1, &eq));
  PetscCall(MatMultAdd(Amf, x, z, y));
  PetscCall(VecAXPY(y, -1.0, z));
  rel = TestRelDiffNorm(y, y1, NORM_INFINITY);
  PetscCall(VecCopy(z, y));
  PetscCall(MatMultAdd(Amf, x, y, y)); /* in place: y = Ax + y */
  PetscCall(VecAXPY(y, -1.0, z));
  rel = PetscMax(rel, TestRelDiffNorm(y, y1, NORM_INFINITY));
  PetscCall(TapCheck(comm, (PetscBool)(eq && rel <= 1e-14), "%s: MatMultTranspose = MatMult bitwise: %s (want yes), MatMultAdd rel diff %.2e (<= 1e-14)", tag, eq ? "yes" : "no", (double)rel));

  /* diagonal */
  PetscCall(MatGetDiagonal(Amf, y1));
  PetscCall(MatGetDiagonal(Aaij, y2));
  rel = TestRelDiffNorm(y1, y2, NORM_INFINITY);
  PetscCall(TapCheck(comm, (PetscBool)(rel <= 1e-15), "%s: diagonal matfree vs AIJ, rel diff %.2e", tag, (double)rel));

  /* null space: constants when singular, attached to both operators */
  PetscCall(MatGetNullSpace(Amf, &nsp));
  {
    MatNullSpace nsp2;
    PetscReal    r1 = 0, anorm;
    PetscCall(MatGetNullSpace(Aaij, &nsp2));
    PetscCall(VecSet(x, 1.0));
    PetscCall(MatMult(Amf, x, y));
    PetscCall(VecNorm(y, NORM_INFINITY, &r1));
    PetscCall(MatNorm(Aaij, NORM_INFINITY, &anorm));
    if (singular)
      PetscCall(TapCheck(comm, (PetscBool)(nsp && nsp2 && r1 <= 1e-13 * anorm), "%s: singular, null space attached to the matrix-free and AIJ operators: %s, %s (want yes, yes), ||A 1|| / ||A|| = %.2e (<= 1e-13)", tag, nsp ? "yes" : "no",
                         nsp2 ? "yes" : "no", (double)(r1 / anorm)));
    else
      PetscCall(TapCheck(comm, (PetscBool)(!nsp && !nsp2 && r1 > 1e-8 * anorm), "%s: nonsingular, null space attached to the matrix-free and AIJ operators: %s, %s (want no, no), ||A 1|| / ||A|| = %.2e (> 1e-8)", tag, nsp ? "yes" : "no",
                         nsp2 ? "yes" : "no", (double)(r1 / anorm)));
  }

  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&y1));
  PetscCall(VecDestroy(&y2));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&w));
  PetscCall(MatDestroy(&Amf));
  PetscCall(MatDestroy(&Aaij));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(0);
}

/* The rank-local block (a MATSHELL composed on the operator) is freed once, with its parent:
   PETSc's allocated memory is back where it was. Its context destroy receives the context's
   address from PETSc 3.23 on: freeing that address instead of the context corrupted the heap
   (a crash, or PETSc's "Corrupted memory", under -malloc_dump, which the test scripts set). */
static PetscErrorCode LocalBlockLifetime(MPI_Comm comm, const PetscInt n[3])
{
  PPEGrid        g;
  Mat            A, Ab;
  Vec            x, y, xl, yl, w;
  PetscLogDouble m0, m1, lo, hi;
  PetscReal      d = PETSC_MAX_REAL; /* set in each cycle; a value that fails the check */

  PetscFunctionBegin;
  PetscCall(PPEGridCreate(comm, &g));
  PetscCall(PPEGridSetSizes(g, n[0], n[1], n[2]));
  PetscCall(PPEGridSetBCString(g, "PPNNDD"));
  PetscCall(PPEGridSetUp(g));
  for (int cycle = 0; cycle < 2; cycle++) { /* the second cycle is measured: first uses are done */
    PetscCall(PetscMallocGetCurrentUsage(&m0));
    PetscCall(PPEStencilCreate(g, &A));
    PetscCall(MatGetDiagonalBlock(A, &Ab));
    PetscCall(MatCreateVecs(A, &x, &y));
    PetscCall(MatCreateVecs(Ab, &xl, &yl));
    PetscCall(VecSetRandom(x, NULL));
    PetscCall(VecGetLocalVector(x, xl));
    PetscCall(MatMult(Ab, xl, yl));
    PetscCall(VecRestoreLocalVector(x, xl));
    PetscCall(VecDuplicate(y, &w));
    PetscCall(PPEStencilMultLocal(A, x, w));
    PetscCall(VecGetLocalVector(y, xl)); /* y <- the block's product, in A's layout */
    PetscCall(VecCopy(yl, xl));
    PetscCall(VecRestoreLocalVector(y, xl));
    PetscCall(TestRelDiff(y, w, NORM_INFINITY, &d));
    PetscCall(VecDestroy(&w));
    PetscCall(VecDestroy(&xl));
    PetscCall(VecDestroy(&yl));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
    PetscCall(MatDestroy(&A)); /* frees the block and its context */
    PetscCall(PetscMallocGetCurrentUsage(&m1));
  }
  m1 -= m0;
  PetscCall(MPIU_Allreduce(&m1, &hi, 1, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
  PetscCall(MPIU_Allreduce(&m1, &lo, 1, MPIU_PETSCLOGDOUBLE, MPI_MIN, comm));
  PetscCall(TapCheck(comm, (PetscBool)(d == 0 && hi == 0 && lo == 0), "rank-local block: MatMult equals PPEStencilMultLocal (diff %.1e, want 0), and destroying the operator frees it and its context (memory growth %.0f to %.0f bytes, want 0)",
                     (double)d, lo, hi));
  PetscCall(PPEGridDestroy(&g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  /* all-periodic, all-Neumann, all-Dirichlet, channel, the Bi-CGSTAB paper's faces, mixed
     Neumann/Dirichlet in every direction and its mirror, periodic with mixed walls */
  const char *bcs[] = {"PPPPPP", "NNNNNN", "DDDDDD", "PPPPNN", "DNNDND", "NDNDND", "DNDNDN", "PPNDDN"};
  PetscInt    n[3] = {13, 11, 9}, nn = 3;
  MPI_Comm    comm;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  comm = PETSC_COMM_WORLD;
  PetscCall(PPEKitInitializePackage());
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-n", n, &nn, NULL));
  for (size_t c = 0; c < sizeof(bcs) / sizeof(bcs[0]); c++)
    for (int loc = 0; loc < 2; loc++)
      for (int st = 0; st < 2; st++) PetscCall(CheckCase(comm, bcs[c], (PPELocation)loc, (PetscBool)st, 0.0, n));
  PetscCall(CheckCase(comm, "NNNNNN", PPE_LOCATION_CELL, PETSC_TRUE, 0.7, n));
  PetscCall(CheckCase(comm, "PPPPNN", PPE_LOCATION_VERTEX, PETSC_FALSE, 2.5, n));
  PetscCall(LocalBlockLifetime(comm, n));
  PetscCall(PetscFinalize());
  return 0;
}
