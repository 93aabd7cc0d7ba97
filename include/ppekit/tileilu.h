/*
   PC "tileilu" and its public setters.

   PCTILEILU: block-Jacobi ILU(0) of the 7-point operator on small tiles of
   each rank's box, stored in the natural (xyz) layout or packed so that the same point of
   consecutive tiles is contiguous (zyx), where the sweeps run over tiles in SIMD lanes.
   See docs/types/tileilu.md.
*/
#pragma once

#include <petscpc.h>

#define PCTILEILU "tileilu"

/*E
   PCTileILULayout - how PCTILEILU stores its factors and runs its sweeps

+  PC_TILEILU_LAYOUT_XYZ - the natural layout of the vector (x fastest); each tile is swept
                           in place, one tile after the other (one GPU thread per tile reads
                           with the stride of the box)
-  PC_TILEILU_LAYOUT_ZYX - tiles packed in groups: the same point of consecutive tiles is
                           contiguous, so one sweep runs over the tiles of a group in SIMD
                           lanes (coalesced on a GPU); costs a gather and a scatter per apply

   Level: intermediate

.seealso: PCTILEILU, PCTileILUSetLayout()
E*/
typedef enum {
  PC_TILEILU_LAYOUT_XYZ,
  PC_TILEILU_LAYOUT_ZYX
} PCTileILULayout;
PETSC_EXTERN const char *const PCTileILULayouts[];

PETSC_EXTERN PetscErrorCode PCTileILUSetTile(PC, PetscInt, PetscInt, PetscInt);
PETSC_EXTERN PetscErrorCode PCTileILUGetTile(PC, PetscInt *, PetscInt *, PetscInt *);
PETSC_EXTERN PetscErrorCode PCTileILUSetLayout(PC, PCTileILULayout);
PETSC_EXTERN PetscErrorCode PCTileILUGetLayout(PC, PCTileILULayout *);
PETSC_EXTERN PetscErrorCode PCTileILUSetFuse(PC, PetscBool);
PETSC_EXTERN PetscErrorCode PCTileILUGetFuse(PC, PetscBool *);
PETSC_EXTERN PetscErrorCode PCTileILUGetInfo(PC, PetscInt[3], PetscInt *, PetscLogDouble *);
PETSC_EXTERN PetscErrorCode PCCreate_TileILU(PC);
