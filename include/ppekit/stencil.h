/*
   The 7-point operator of a PPEGrid as a PETSc Mat.

   MATPPESTENCIL ("ppestencil") is a registered matrix type that applies
   A = W (sigma I - Lap_h) (see ppekit/grid.h), or with variable coefficients
   A = W (sigma I - D beta G) (PPEStencilSetDensity(), PPEStencilSetFaceCoefficients()),
   without storing it: MatMult,
   MatMultTranspose, MatMultAdd, MatGetDiagonal, MatDuplicate, MatConvert to
   AIJ, and the constant null space when the grid is singular. MatMult
   overlaps the halo exchange with the computation of the points that need no
   ghost value.

   PPEStencilMultLocal() applies the rank-local block (MatGetDiagonalBlock) without any
   exchange; PPEStencilMultDot() fuses MatMult with local dot products of its output.

   PPEStencilCreateAssembled() builds the assembled twin (AIJ by default, any
   type DMCreateMatrix() makes for a DMDA, e.g. MATHYPRESTRUCT) with the same
   action.
*/
#pragma once

#include <petscmat.h>
#include <ppekit/sys.h>
#include <ppekit/grid.h>

#define MATPPESTENCIL "ppestencil"

/* How the coefficient of a face comes from the densities rho_L, rho_R of its two points:
   ARITHMETIC beta = 1 / ((rho_L + rho_R) / 2) (the mean density, as volume-of-fluid codes
   do), HARMONIC beta = (1/rho_L + 1/rho_R) / 2 (the harmonic mean density). */
typedef enum {
  PPE_FACE_MEAN_ARITHMETIC,
  PPE_FACE_MEAN_HARMONIC
} PPEFaceMean;
PETSC_EXTERN const char *const PPEFaceMeans[];

/* Where the operator's coefficients come from. */
typedef enum {
  PPE_COEFFICIENTS_CONSTANT,
  PPE_COEFFICIENTS_DENSITY,
  PPE_COEFFICIENTS_FACES
} PPEStencilCoefficients;
PETSC_EXTERN const char *const PPEStencilCoefficientsTypes[];

PETSC_EXTERN PetscErrorCode PPEStencilCreate(PPEGrid, Mat *);
PETSC_EXTERN PetscErrorCode PPEStencilCreateAssembled(PPEGrid, MatType, Mat *);
PETSC_EXTERN PetscErrorCode PPEStencilSetGrid(Mat, PPEGrid);
PETSC_EXTERN PetscErrorCode PPEStencilGetGrid(Mat, PPEGrid *);
PETSC_EXTERN PetscErrorCode PPEStencilSetOverlap(Mat, PetscBool);
PETSC_EXTERN PetscErrorCode PPEStencilGetOverlap(Mat, PetscBool *);
PETSC_EXTERN PetscErrorCode PPEStencilSetBackend(Mat, PPEBackend);
PETSC_EXTERN PetscErrorCode PPEStencilGetBackend(Mat, PPEBackend *);
PETSC_EXTERN PetscErrorCode PPEStencilAttachNullSpace(PPEGrid, Mat);
PETSC_EXTERN PetscErrorCode PPEStencilAssemble(Mat, MatType, MatReuse, Mat *);

/* Variable coefficients (src/stencil/stencilcoef.c). */
PETSC_EXTERN PetscErrorCode PPEStencilSetDensity(Mat, Vec);
PETSC_EXTERN PetscErrorCode PPEStencilSetFaceCoefficients(Mat, PetscInt, const Vec[]);
PETSC_EXTERN PetscErrorCode PPEStencilSetConstantCoefficients(Mat);
PETSC_EXTERN PetscErrorCode PPEStencilSetFaceMean(Mat, PPEFaceMean);
PETSC_EXTERN PetscErrorCode PPEStencilGetFaceMean(Mat, PPEFaceMean *);
PETSC_EXTERN PetscErrorCode PPEStencilGetCoefficients(Mat, PPEStencilCoefficients *, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode MatCreate_PPEStencil(Mat);

/* Communication-avoiding applications (src/stencil/stencillocal.c): the rank-local block with
   no exchange, and the full apply fused with local dot products of its output. */
PETSC_EXTERN PetscErrorCode PPEStencilMultLocal(Mat, Vec, Vec);
PETSC_EXTERN PetscErrorCode PPEStencilMultDot(Mat, Vec, Vec, PetscInt, const Vec[], PetscScalar[]);
