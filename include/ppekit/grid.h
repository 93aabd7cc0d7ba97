/*
   PPEGrid: the structured grid that every PPEKit solver reads.

   A box of nx x ny x nz unknowns with lengths Lx, Ly, Lz; unknowns at cell
   centres or at vertices; one boundary condition per face (periodic in pairs,
   Neumann, Dirichlet); uniform spacing in x and y, uniform or stretched in z;
   an optional Helmholtz shift sigma >= 0. The grid owns (or is attached to)
   the DMDA that distributes the unknowns, and knows the exact 1D eigenvalues
   of its operators and bounds on the eigenvalues of the 3D operator.

   Operator convention (see docs/conventions.md):

       A = W (sigma I - Lap_h),     W = diag(V_p / Vref),

   where Lap_h is the second-order 7-point Laplacian, V_p the control volume of
   unknown p and Vref = hx*hy*hz the volume of an interior cell of the uniform
   grid with the same sizes. A is symmetric positive semi-definite; on a uniform
   grid W = I except at vertex-centred Neumann faces.
*/
#pragma once

#include <petscdmda.h>

typedef struct _p_PPEGrid *PPEGrid;

PETSC_EXTERN PetscClassId PPEGRID_CLASSID;

/*E
   PPEBCType - boundary condition on a face of the box

+  PPE_BC_PERIODIC  - periodic; must be set on both faces of a direction
.  PPE_BC_NEUMANN   - given outward normal derivative
-  PPE_BC_DIRICHLET - given value

   Level: beginner
E*/
typedef enum {
  PPE_BC_PERIODIC,
  PPE_BC_NEUMANN,
  PPE_BC_DIRICHLET
} PPEBCType;
PETSC_EXTERN const char *const PPEBCTypes[];

/*E
   PPEFace - the six faces of the box, in the order of -ppe_bc

   Level: beginner
E*/
typedef enum {
  PPE_FACE_XLO,
  PPE_FACE_XHI,
  PPE_FACE_YLO,
  PPE_FACE_YHI,
  PPE_FACE_ZLO,
  PPE_FACE_ZHI
} PPEFace;
PETSC_EXTERN const char *const PPEFaces[];

/*E
   PPELocation - where the unknowns sit

+  PPE_LOCATION_CELL   - cell centres (staggered MAC pressure); Dirichlet and Neumann
                         faces lie half a cell outside the first unknown
-  PPE_LOCATION_VERTEX - mesh vertices; a Neumann face carries unknowns, a Dirichlet
                         face is one spacing outside the first unknown (its value is known)

   Level: beginner
E*/
typedef enum {
  PPE_LOCATION_CELL,
  PPE_LOCATION_VERTEX
} PPELocation;
PETSC_EXTERN const char *const PPELocations[];

/*E
   PPEStretchType - spacing of the z mesh lines

+  PPE_STRETCH_NONE - uniform
.  PPE_STRETCH_TANH - z = z0 + Lz/2 (1 + tanh(beta (2 s - 1)) / tanh(beta)), s uniform in [0,1]:
                      points clustered at both z faces (wall-bounded channels)
-  PPE_STRETCH_USER - mesh lines given by PPEGridSetZLines()

   Level: beginner
E*/
typedef enum {
  PPE_STRETCH_NONE,
  PPE_STRETCH_TANH,
  PPE_STRETCH_USER
} PPEStretchType;
PETSC_EXTERN const char *const PPEStretchTypes[];

/* Field and boundary-data callbacks: x is the point (x,y,z); on a 2D grid (x,y,0), and the
   faces are xlo..yhi. For a Dirichlet face the boundary callback returns the value, for a
   Neumann face the outward normal derivative. */
typedef PetscScalar (*PPEFieldFn)(const PetscReal x[3], void *ctx);
typedef PetscScalar (*PPEBoundaryFn)(PPEFace face, const PetscReal x[3], void *ctx);

PETSC_EXTERN PetscErrorCode PPEGridCreate(MPI_Comm, PPEGrid *);
PETSC_EXTERN PetscErrorCode PPEGridDestroy(PPEGrid *);
PETSC_EXTERN PetscErrorCode PPEGridView(PPEGrid, PetscViewer);
PETSC_EXTERN PetscErrorCode PPEGridViewFromOptions(PPEGrid, PetscObject, const char[]);
PETSC_EXTERN PetscErrorCode PPEGridSetFromOptions(PPEGrid);
PETSC_EXTERN PetscErrorCode PPEGridSetUp(PPEGrid);

PETSC_EXTERN PetscErrorCode PPEGridSetDimension(PPEGrid, PetscInt);
PETSC_EXTERN PetscErrorCode PPEGridGetDimension(PPEGrid, PetscInt *);
PETSC_EXTERN PetscErrorCode PPEGridSetDimensionFromOptions(PPEGrid);
PETSC_EXTERN PetscErrorCode PPEGridSetSizes(PPEGrid, PetscInt, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode PPEGridGetSizes(PPEGrid, PetscInt *, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode PPEGridSetLengths(PPEGrid, PetscReal, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode PPEGridGetLengths(PPEGrid, PetscReal *, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode PPEGridSetOrigin(PPEGrid, PetscReal, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode PPEGridGetOrigin(PPEGrid, PetscReal *, PetscReal *, PetscReal *);
PETSC_EXTERN PetscErrorCode PPEGridSetBC(PPEGrid, PPEFace, PPEBCType);
PETSC_EXTERN PetscErrorCode PPEGridSetBCs(PPEGrid, const PPEBCType[6]);
PETSC_EXTERN PetscErrorCode PPEGridGetBC(PPEGrid, PPEFace, PPEBCType *);
PETSC_EXTERN PetscErrorCode PPEGridGetBCString(PPEGrid, char[7]);
PETSC_EXTERN PetscErrorCode PPEGridSetBCString(PPEGrid, const char[]);
PETSC_EXTERN PetscErrorCode PPEGridSetLocation(PPEGrid, PPELocation);
PETSC_EXTERN PetscErrorCode PPEGridGetLocation(PPEGrid, PPELocation *);
PETSC_EXTERN PetscErrorCode PPEGridSetZStretch(PPEGrid, PPEStretchType, PetscReal);
PETSC_EXTERN PetscErrorCode PPEGridGetZStretch(PPEGrid, PPEStretchType *, PetscReal *);
PETSC_EXTERN PetscErrorCode PPEGridSetZLines(PPEGrid, PetscInt, const PetscReal[]);
PETSC_EXTERN PetscErrorCode PPEGridSetShift(PPEGrid, PetscReal);
PETSC_EXTERN PetscErrorCode PPEGridGetShift(PPEGrid, PetscReal *);
PETSC_EXTERN PetscErrorCode PPEGridSetProcesses(PPEGrid, PetscInt, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode PPEGridSetDM(PPEGrid, DM);
PETSC_EXTERN PetscErrorCode PPEGridGetDM(PPEGrid, DM *);
PETSC_EXTERN PetscErrorCode PPEGridGetFromDM(DM, PPEGrid *);

PETSC_EXTERN PetscErrorCode PPEGridGetNumLines(PPEGrid, PetscInt, PetscInt *);
PETSC_EXTERN PetscErrorCode PPEGridGetLines(PPEGrid, PetscInt, PetscInt *, const PetscReal *[]);
PETSC_EXTERN PetscErrorCode PPEGridGetCoordinates(PPEGrid, PetscInt, const PetscReal *[]);
PETSC_EXTERN PetscErrorCode PPEGridGetWeights(PPEGrid, PetscInt, const PetscReal *[]);
PETSC_EXTERN PetscErrorCode PPEGridGetReferenceSpacing(PPEGrid, PetscInt, PetscReal *);
PETSC_EXTERN PetscErrorCode PPEGridIsUniform(PPEGrid, PetscInt, PetscBool *);
PETSC_EXTERN PetscErrorCode PPEGridIsSingular(PPEGrid, PetscBool *);
PETSC_EXTERN PetscErrorCode PPEGridGetEigenvalues(PPEGrid, PetscInt, const PetscReal *[]);
PETSC_EXTERN PetscErrorCode PPEGridGetOperatorBounds(PPEGrid, PetscReal *, PetscReal *, PetscBool *);

PETSC_EXTERN PetscErrorCode PPEGridEigenvalues1d(PPELocation, PPEBCType, PPEBCType, PetscInt, PetscReal, PetscReal[]);

PETSC_EXTERN PetscErrorCode PPEGridSampleField(PPEGrid, PPEFieldFn, void *, Vec);
PETSC_EXTERN PetscErrorCode PPEGridComputeRHS(PPEGrid, PPEFieldFn, PPEBoundaryFn, void *, Vec);
PETSC_EXTERN PetscErrorCode PPEGridComputeErrorNorms(PPEGrid, Vec, Vec, PetscReal *, PetscReal *);
