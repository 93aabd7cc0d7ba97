/*
   PC tileilu: the public setters and getters, each under its manual page; each dispatches to the
   method composed by PCCreate_TileILU() in tileilu.c. See the manual page PCTILEILU there; the
   defaults the pages name (PCTileILUDefaultTile, ...) are defined once, in tileilu.c.
*/
#include <petsc/private/pcimpl.h>
#include "../../pluginimpl.h"

/*@
   PCTileILUSetTile - sets the tile shape of PCTILEILU

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  bx, by, bz - points per tile in x, y and z (>= 1)

   Options Database Key:
.  -pc_tileilu_tile <bx,by,bz> - the tile shape (default PCTileILUDefaultTile = 8,8,32; tx,ty on a 2D operator)

   Notes:
   A size larger than the local box of a rank is clamped to the box on that rank (PetscInfo
   says so); the shape used is shown by -ksp_view and PCTileILUGetInfo(). Changing the shape
   after set-up refactorises at the next set-up.

   On a 2D operator the tiles are bx x by (the user's x and y; bz is not used), the option
   takes the two sizes tx,ty, and the default is PCTileILUDefaultTile2d = 16,64.

   Level: intermediate

.seealso: PCTILEILU, PCTileILUGetTile(), PCTileILUSetLayout()
@*/
PetscErrorCode PCTileILUSetTile(PC pc, PetscInt bx, PetscInt by, PetscInt bz)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscValidLogicalCollectiveInt(pc, bx, 2);
  PetscValidLogicalCollectiveInt(pc, by, 3);
  PetscValidLogicalCollectiveInt(pc, bz, 4);
  PetscTryMethod(pc, "PCTileILUSetTile_C", (PC, PetscInt, PetscInt, PetscInt), (pc, bx, by, bz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PCTileILUGetTile - the requested tile shape of PCTILEILU

   Not Collective

   Level: intermediate

.seealso: PCTILEILU, PCTileILUSetTile(), PCTileILUGetInfo()
@*/
PPE_API_GETTER3(PCTileILUGetTile, PC, pc, PetscInt, bx, PetscInt, by, PetscInt, bz)

/*@
   PCTileILUSetLayout - sets the layout of the factors and sweeps of PCTILEILU

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  layout - PC_TILEILU_LAYOUT_XYZ or PC_TILEILU_LAYOUT_ZYX

   Options Database Key:
.  -pc_tileilu_layout <xyz|zyx|xy|yx> - the layout (default PCTileILUDefaultLayout = zyx; xy, yx on a 2D operator)

   Notes:
   Both layouts compute the same numbers; zyx adds a gather and a scatter per application
   and runs the sweeps of groups of tiles in SIMD lanes.
   On a 2D operator the option names them xy and yx (and -ksp_view shows those names); the
   2D names on a 3D operator are an error at set-up.

   Level: intermediate

.seealso: PCTILEILU, PCTileILULayout, PCTileILUSetTile()
@*/
PPE_API_SETTER(PCTileILUSetLayout, PC, pc, PCTileILULayout, layout, Enum)

/*@
   PCTileILUGetLayout - the layout of PCTILEILU

   Not Collective

   Level: intermediate

.seealso: PCTILEILU, PCTileILUSetLayout()
@*/
PPE_API_GETTER(PCTileILUGetLayout, PC, pc, PCTileILULayout, layout)

/*@
   PCTileILUSetFuse - in the zyx layout, run gather, sweeps and scatter group by group, or
   as three passes over the box

   Logically Collective

   Input Parameters:
+  pc - the preconditioner
-  fuse - PETSC_TRUE (the default, PCTileILUDefaultFuse): each group of tiles is gathered into a buffer that stays in
          the cache, swept and scattered; PETSC_FALSE: the whole vector is gathered into the
          packed layout, swept, and scattered back, and -log_view times the three passes
          (events PPETileGather, PPETileSweep, PPETileScatter)

   Options Database Key:
.  -pc_tileilu_fuse <bool> - fuse (default PCTileILUDefaultFuse = true)

   Notes:
   The results are identical; the unfused passes measure what the layout change costs. The
   xyz layout has no gather or scatter and ignores this setting.

   Level: advanced

.seealso: PCTILEILU, PCTileILUSetLayout()
@*/
PPE_API_SETTER(PCTileILUSetFuse, PC, pc, PetscBool, fuse, Bool)

/*@
   PCTileILUGetFuse - whether PCTILEILU fuses gather, sweeps and scatter in the zyx layout

   Not Collective

   Level: advanced

.seealso: PCTILEILU, PCTileILUSetFuse()
@*/
PPE_API_GETTER(PCTileILUGetFuse, PC, pc, PetscBool, fuse)

/*@
   PCTileILUGetInfo - what PCTILEILU set up on this rank

   Not Collective

   Input Parameter:
.  pc - the set-up preconditioner

   Output Parameters:
+  tile - the tile shape used (the requested one clamped to the local box; 2D: tx, ty, 1), or NULL
.  ntiles - the number of tiles of this rank, or NULL
-  bytes - the memory held by the factors and work arrays of this rank, or NULL

   Level: intermediate

.seealso: PCTILEILU, PCTileILUSetTile()
@*/
PetscErrorCode PCTileILUGetInfo(PC pc, PetscInt tile[3], PetscInt *ntiles, PetscLogDouble *bytes)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(pc, PC_CLASSID, 1);
  PetscUseMethod(pc, "PCTileILUGetInfo_C", (PC, PetscInt[3], PetscInt *, PetscLogDouble *), (pc, tile, ntiles, bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}
