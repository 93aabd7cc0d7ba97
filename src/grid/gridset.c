/*
   PPEGrid settings: the Set/Get functions of the description (sizes, lengths, boundary
   conditions, location, z spacing, shift, process grid, DMDA) and PPEGridSetFromOptions();
   all before PPEGridSetUp() (grid.c).
*/
#include <ppekit/private/gridimpl.h>
#include <string.h>

/* what -ppe_grid_z_stretch accepts: user lines come from -ppe_grid_z_lines */
static const char *const PPEStretchOptions[] = {"none", "tanh", "PPEStretchType", "PPE_STRETCH_", NULL};

#define PPEGridCheckNotSetUp(g) PetscCheck(!(g)->setupcalled, PetscObjectComm((PetscObject)(g)), PETSC_ERR_ORDER, "Change the grid before PPEGridSetUp(), not after")

/*@
   PPEGridSetDimension - makes the grid two- or three-dimensional

   Logically Collective

   Input Parameters:
+  grid - the grid
-  dim - 3 (the default) or 2

   Options Database Key:
.  -ppe_grid_dim <2,3> - the dimension (also implied by two values of -ppe_grid_n or a
                         four-letter -ppe_bc)

   Notes:
   A 2D grid has directions x and y and faces xlo, xhi, ylo, yhi; every setter and getter
   speaks of those (the third size, length and origin are ignored by the setters, and the
   getters return 1, 0 and 0). Its y is the last direction: the one that can be stretched
   (PPEGridSetZStretch(), PPEGridSetZLines() act on it) and along which PC fftptdma solves
   its tridiagonal systems. Its DMDA (PPEGridGetDM()) is a 2D DMDA.

   Level: beginner

.seealso: PPEGridGetDimension(), PPEGridSetSizes(), PPEGridSetBCString()
@*/
PetscErrorCode PPEGridSetDimension(PPEGrid grid, PetscInt dim)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckNotSetUp(grid);
  PetscCheck(dim >= 2 && dim <= 3, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_OUTOFRANGE, "A PPEGrid is 2D or 3D, got dimension %" PetscInt_FMT, dim);
  PetscCheck(!grid->dim_set || grid->dim == dim, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_INCOMP, "The grid cannot be %dD (PPEGridSetDimension() or -ppe_grid_dim) and %dD (%s)", (int)dim, (int)grid->dim, grid->dim_from);
  grid->dim      = dim;
  grid->dim_set  = PETSC_TRUE;
  grid->dim_from = "PPEGridSetDimension() or -ppe_grid_dim";
  PetscFunctionReturn(PETSC_SUCCESS);
}

PPE_OBJ_GETTER(PPEGridGetDimension, PPEGrid, grid, PPEGRID_CLASSID, PetscInt, dim, , grid->dim)

/* A dimension implied by a setting (sizes, BC string, DMDA): adopted unless the user set
   another one. */
static PetscErrorCode PPEGridImplyDimension(PPEGrid grid, PetscInt dim, const char what[])
{
  PetscFunctionBegin;
  PetscCheck(!grid->dim_set || grid->dim == dim, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_INCOMP, "The grid cannot be %dD (%s) and %dD (%s)", (int)dim, what, (int)grid->dim, grid->dim_from);
  grid->dim      = dim;
  grid->dim_set  = PETSC_TRUE;
  grid->dim_from = what;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridSetSizes - sets the global number of unknowns in each direction

   Logically Collective

   Input Parameters:
+  grid - the grid
-  nx, ny, nz - unknowns per direction, at least 3 each (nz is ignored on a 2D grid)

   Options Database Key:
.  -ppe_grid_n <nx,ny[,nz]> - sizes (one value: the same in every direction; two: a 2D grid)

   Level: beginner

.seealso: PPEGridSetDimension()
@*/
PetscErrorCode PPEGridSetSizes(PPEGrid grid, PetscInt nx, PetscInt ny, PetscInt nz)
{
  PetscInt n[3] = {nx, ny, nz};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckNotSetUp(grid);
  for (int d = 0; d < 3; d++) {
    PetscCheck(n[d] >= 3 || d >= grid->dim, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_OUTOFRANGE, "Grid needs at least 3 points in every direction: got %" PetscInt_FMT " in %c", n[d], "xyz"[d]);
    grid->uN[d] = n[d];
  }
  grid->sizes_set = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sizes as set; nz = 1 on a 2D grid. */
PPE_OBJ_GETTER3(PPEGridGetSizes, PPEGrid, grid, PPEGRID_CLASSID, PetscInt, nx, grid->uN[0], ny, grid->uN[1], nz, 2 < grid->dim ? grid->uN[2] : 1)

/*@
   PPEGridSetLengths - sets the lengths of the box

   Logically Collective

   Input Parameters:
+  grid - the grid
-  Lx, Ly, Lz - lengths, positive

   Options Database Key:
.  -ppe_grid_L <Lx,Ly,Lz> - lengths (one value: the same in every direction)

   Level: beginner
@*/
PetscErrorCode PPEGridSetLengths(PPEGrid grid, PetscReal Lx, PetscReal Ly, PetscReal Lz)
{
  PetscReal L[3] = {Lx, Ly, Lz};

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckNotSetUp(grid);
  for (int d = 0; d < grid->dim; d++) {
    PetscCheck(L[d] > 0 && PetscIsNormalReal(L[d]), PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_OUTOFRANGE, "Grid lengths must be positive and finite: got L%c = %g", "xyz"[d], (double)L[d]);
    grid->uL[d] = L[d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The lengths as set; Lz = 0 on a 2D grid. */
PPE_OBJ_GETTER3(PPEGridGetLengths, PPEGrid, grid, PPEGRID_CLASSID, PetscReal, Lx, grid->uL[0], Ly, grid->uL[1], Lz, 2 < grid->dim ? grid->uL[2] : 0.0)

/*@
   PPEGridSetOrigin - sets the lower corner of the box

   Logically Collective

   Options Database Key:
.  -ppe_grid_origin <x0,y0,z0> - lower corner

   Level: beginner
@*/
PetscErrorCode PPEGridSetOrigin(PPEGrid grid, PetscReal x0, PetscReal y0, PetscReal z0)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckNotSetUp(grid);
  PetscCheck(!PetscIsInfOrNanReal(x0) && !PetscIsInfOrNanReal(y0) && !PetscIsInfOrNanReal(z0), PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_OUTOFRANGE, "The grid origin must be finite: got (%g, %g, %g)", (double)x0, (double)y0, (double)z0);
  grid->uorigin[0] = x0;
  grid->uorigin[1] = y0;
  grid->uorigin[2] = 2 < grid->dim ? z0 : 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The lower corner as set; z0 = 0 on a 2D grid. */
PPE_OBJ_GETTER3(PPEGridGetOrigin, PPEGrid, grid, PPEGRID_CLASSID, PetscReal, x0, grid->uorigin[0], y0, grid->uorigin[1], z0, 2 < grid->dim ? grid->uorigin[2] : 0.0)

/*@
   PPEGridSetBC - sets the boundary condition of one face

   Logically Collective

   Input Parameters:
+  grid - the grid
.  face - PPE_FACE_XLO ... PPE_FACE_ZHI
-  bc - PPE_BC_PERIODIC, PPE_BC_NEUMANN or PPE_BC_DIRICHLET; periodic must be set on both
        faces of a direction (checked by PPEGridSetUp())

   Options Database Key:
.  -ppe_bc <xlo,xhi,ylo,yhi,zlo,zhi> - each periodic, neumann or dirichlet (or P, N, D);
                                       also a single six-letter word such as PPPPNN

   Level: beginner
@*/
PetscErrorCode PPEGridSetBC(PPEGrid grid, PPEFace face, PPEBCType bc)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckNotSetUp(grid);
  PetscCheck((int)face >= 0 && (int)face < 2 * (int)grid->dim, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_OUTOFRANGE, "Face %d is not one of the %d faces 0..%d of a %dD grid", (int)face, 2 * (int)grid->dim, 2 * (int)grid->dim - 1,
             (int)grid->dim);
  PetscCheck(bc >= PPE_BC_PERIODIC && bc <= PPE_BC_DIRICHLET, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_OUTOFRANGE, "Unknown boundary condition %d (allowed: periodic, neumann, dirichlet)", (int)bc);
  grid->ubc[face] = bc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* (bc: 2 dim values, in face order) */
PetscErrorCode PPEGridSetBCs(PPEGrid grid, const PPEBCType bc[6])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  for (int f = 0; f < 2 * grid->dim; f++) PetscCall(PPEGridSetBC(grid, (PPEFace)f, bc[f]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEGridGetBC(PPEGrid grid, PPEFace face, PPEBCType *bc)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PetscCheck((int)face >= 0 && (int)face < 2 * (int)grid->dim, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_OUTOFRANGE, "Face %d is not one of the %d faces 0..%d of a %dD grid", (int)face, 2 * (int)grid->dim, 2 * (int)grid->dim - 1,
             (int)grid->dim);
  *bc = grid->ubc[face];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridSetBCString - sets the boundary conditions from letters P, N, D (any case) in face
   order: six for a 3D grid (xlo xhi ylo yhi zlo zhi, e.g. "PPPPNN" for a channel), four for
   a 2D one (xlo xhi ylo yhi, e.g. "PPNN"); four letters make the grid 2D

   Logically Collective

   Level: beginner

.seealso: PPEGridSetDimension()
@*/
PetscErrorCode PPEGridSetBCString(PPEGrid grid, const char s[])
{
  PPEBCType bc[6];
  PetscBool found;
  size_t    len;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PetscCall(PetscStrlen(s, &len));
  PetscCheck(len == 6 || len == 4, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_SIZ, "A boundary-condition string has 6 letters (xlo xhi ylo yhi zlo zhi) or, for a 2D grid, 4 (xlo xhi ylo yhi), got \"%s\"", s);
  PetscCall(PPEGridImplyDimension(grid, (PetscInt)len / 2, len == 4 ? "a boundary-condition string of 4 letters" : "a boundary-condition string of 6 letters"));
  for (int f = 0; f < (int)len; f++) {
    char letter[2] = {s[f], 0};
    PetscCall(PPEParseBC(letter, &bc[f], &found));
    PetscCheck(found, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown boundary condition '%c' at position %d of \"%s\": use the letters P, N, D", s[f], f + 1, s);
  }
  PetscCall(PPEGridSetBCs(grid, bc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridSetLocation - places the unknowns at cell centres or vertices

   Options Database Key:
.  -ppe_grid_location <cell,vertex> - location

   Level: beginner
@*/
PetscErrorCode PPEGridSetLocation(PPEGrid grid, PPELocation loc)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckNotSetUp(grid);
  grid->location = loc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PPE_OBJ_GETTER(PPEGridGetLocation, PPEGrid, grid, PPEGRID_CLASSID, PPELocation, loc, , grid->location)

/*@
   PPEGridSetZStretch - chooses the spacing along z

   Input Parameters:
+  grid - the grid
.  type - PPE_STRETCH_NONE or PPE_STRETCH_TANH (PPE_STRETCH_USER is set by PPEGridSetZLines())
-  factor - the tanh clustering factor beta > 0 (larger: finer at the walls)

   Options Database Keys:
+  -ppe_grid_z_stretch <none,tanh> - spacing
-  -ppe_grid_z_stretch_factor <beta> - clustering factor

   Level: beginner
@*/
PetscErrorCode PPEGridSetZStretch(PPEGrid grid, PPEStretchType type, PetscReal factor)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckNotSetUp(grid);
  PetscCheck(type != PPE_STRETCH_USER, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_WRONG, "Give user mesh lines with PPEGridSetZLines()");
  if (type == PPE_STRETCH_TANH) PetscCheck(factor > 0 && PetscIsNormalReal(factor), PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_OUTOFRANGE, "The tanh stretch factor must be positive and finite: got %g", (double)factor);
  grid->stretch = type;
  if (type == PPE_STRETCH_TANH) grid->stretch_factor = factor;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEGridGetZStretch(PPEGrid grid, PPEStretchType *type, PetscReal *factor)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  if (type) *type = grid->stretch;
  if (factor) *factor = grid->stretch_factor;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridSetZLines - gives the z mesh lines: the nz+1 cell faces (cell-centred) or the
   mesh nodes including both boundary nodes (vertex-centred: nz-1, nz or nz+1 intervals for
   0, 1 or 2 Dirichlet z faces; nz intervals when periodic)

   Logically Collective

   Input Parameters:
+  grid - the grid
.  n - number of lines (checked against the BCs and nz by PPEGridSetUp())
-  z - strictly increasing coordinates; z[0] and z[n-1] set the z extent of the box

   Options Database Key:
.  -ppe_grid_z_lines <z0,z1,...> - the lines

   Level: intermediate
@*/
PetscErrorCode PPEGridSetZLines(PPEGrid grid, PetscInt n, const PetscReal z[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckNotSetUp(grid);
  PetscCheck(n >= 2, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_SIZ, "Need at least 2 z mesh lines, got %" PetscInt_FMT, n);
  for (PetscInt m = 0; m < n; m++) PetscCheck(!PetscIsInfOrNanReal(z[m]), PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_OUTOFRANGE, "z mesh lines must be finite: line %" PetscInt_FMT " is %g", m, (double)z[m]);
  PetscCall(PetscFree(grid->zlines));
  PetscCall(PetscMalloc1(n, &grid->zlines));
  PetscCall(PetscArraycpy(grid->zlines, z, n));
  grid->nzlines = n;
  grid->stretch = PPE_STRETCH_USER;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEGridSetLinesInternal(PPEGrid grid, int d, PetscInt n, const PetscReal l[])
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckNotSetUp(grid);
  PetscCheck(d == 0 || d == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Internal mesh lines along the kernels' x or y only, got direction %d", d);
  PetscCheck(n >= 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Need at least 2 mesh lines, got %" PetscInt_FMT, n);
  PetscCall(PetscFree(grid->xylines[d]));
  PetscCall(PetscMalloc1(n, &grid->xylines[d]));
  PetscCall(PetscArraycpy(grid->xylines[d], l, n));
  grid->nxylines[d] = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridSetShift - sets the Helmholtz shift sigma >= 0: the operator becomes W (sigma I - Lap_h)

   Options Database Key:
.  -ppe_grid_shift <sigma> - the shift

   Level: intermediate
@*/
PetscErrorCode PPEGridSetShift(PPEGrid grid, PetscReal shift)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckNotSetUp(grid);
  PetscCheck(shift >= 0 && !PetscIsInfOrNanReal(shift), PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_OUTOFRANGE, "The Helmholtz shift must be finite and >= 0 (a negative shift makes the operator indefinite): got %g", (double)shift);
  grid->shift = shift;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PPE_OBJ_GETTER(PPEGridGetShift, PPEGrid, grid, PPEGRID_CLASSID, PetscReal, shift, , grid->shift)

/*@
   PPEGridSetProcesses - sets the process grid of the DMDA the grid creates

   Options Database Key:
.  -ppe_grid_procs <px,py[,pz]> - processes per direction (default: PETSc decides; pz is
                                   ignored on a 2D grid)

   Level: intermediate
@*/
PetscErrorCode PPEGridSetProcesses(PPEGrid grid, PetscInt px, PetscInt py, PetscInt pz)
{
  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PPEGridCheckNotSetUp(grid);
  grid->uprocs[0] = px;
  grid->uprocs[1] = py;
  grid->uprocs[2] = pz;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridSetDM - attaches the grid to an existing DMDA instead of creating one

   Logically Collective

   Input Parameters:
+  grid - the grid
-  da - a 3D or 2D DMDA with one degree of freedom and stencil width >= 1 (a 2D one makes
        the grid 2D); its sizes become the grid's sizes unless sizes were set, in which case
        they must match; a direction is periodic in the DMDA exactly when its BCs are periodic
        (checked by PPEGridSetUp())

   Level: intermediate

.seealso: PPEGridGetDM(), PPEGridGetFromDM()
@*/
PetscErrorCode PPEGridSetDM(PPEGrid grid, DM da)
{
  static const char *const what[] = {"", "", "a 2D DMDA", "a 3D DMDA"}; /* by dimension */
  PetscBool                isda;
  PetscInt                 dim;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PetscValidHeaderSpecific(da, DM_CLASSID, 2);
  PPEGridCheckNotSetUp(grid);
  PetscCall(PetscObjectTypeCompare((PetscObject)da, DMDA, &isda));
  PetscCheck(isda, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_WRONG, "PPEGrid needs a DMDA, got a DM of type %s", ((PetscObject)da)->type_name ? ((PetscObject)da)->type_name : "(not set)");
  PetscCall(DMGetDimension(da, &dim));
  PetscCheck(dim >= 2, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_WRONG, "PPEGrid needs a 2D or 3D DMDA, got dimension %" PetscInt_FMT, dim);
  PetscCall(PPEGridImplyDimension(grid, dim, what[dim]));
  PetscCall(PetscObjectReference((PetscObject)da));
  PetscCall(DMDestroy(&grid->da));
  grid->da       = da;
  grid->da_owned = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridGetDM - the DMDA of the grid (after PPEGridSetUp()): 2D for a 2D grid

   Not Collective

   Level: beginner
@*/
PPE_OBJ_GETTER(PPEGridGetDM, PPEGrid, grid, PPEGRID_CLASSID, DM, da, PetscCheck(grid->setupcalled, PetscObjectComm((PetscObject)grid), PETSC_ERR_ORDER, "Call PPEGridSetUp() before PPEGridGetDM()"), grid->da)

/*@
   PPEGridGetFromDM - the grid set up on a DMDA, or NULL if there is none

   Not Collective

   Level: intermediate
@*/
PetscErrorCode PPEGridGetFromDM(DM da, PPEGrid *grid)
{
  PetscContainer c;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(da, DM_CLASSID, 1);
  *grid = NULL;
  PetscCall(PetscObjectQuery((PetscObject)da, "PPEGrid", (PetscObject *)&c));
  if (c) PetscCall(PetscContainerGetPointer(c, (void **)grid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridSetDimensionFromOptions - reads the dimension alone: -ppe_grid_dim, or two values
   of -ppe_grid_n or a four-letter -ppe_bc for a 2D grid (PPEGridSetFromOptions() calls it;
   a program that sets problem defaults first, which depend on the dimension, calls it
   before them)

   Collective

   Options Database Key:
.  -ppe_grid_dim <2,3> - dimension

   Level: intermediate

.seealso: PPEGridSetDimension(), PPEGridSetFromOptions()
@*/
/* PETSc's list parsing skips empty entries ("4,,4" reads as 4,4: a 2D grid) and takes an empty
   value as no value: the grid's list options are refused when given empty or with an empty entry */
static PetscErrorCode PPEGridCheckListOptions(PPEGrid grid)
{
  const char *const names[] = {"-ppe_grid_n", "-ppe_grid_L", "-ppe_grid_origin", "-ppe_bc", "-ppe_grid_procs", "-ppe_grid_z_lines"};
  const char       *prefix, *v;
  PetscBool         set;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)grid, &prefix));
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    size_t len = 0;
    PetscCall(PetscOptionsFindPair(((PetscObject)grid)->options, prefix, names[i], &v, &set));
    if (!set) continue;
    if (v) PetscCall(PetscStrlen(v, &len));
    PetscCheck(len > 0, PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_WRONG, "%s was given no value", names[i]);
    PetscCheck(v[0] != ',' && v[len - 1] != ',' && !strstr(v, ",,"), PetscObjectComm((PetscObject)grid), PETSC_ERR_ARG_WRONG, "%s %s has an empty entry: give comma-separated values", names[i], v);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PPEGridSetDimensionFromOptions(PPEGrid grid)
{
  PetscInt    dim = grid->dim, n[4], nn = 4;
  PetscBool   flg, nflg, bflg;
  char        word[64];
  const char *prefix;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PetscCall(PPEGridCheckListOptions(grid));
  PetscCall(PetscObjectGetOptionsPrefix((PetscObject)grid, &prefix));
  PetscCall(PetscOptionsGetInt(((PetscObject)grid)->options, prefix, "-ppe_grid_dim", &dim, &flg));
  if (flg) PetscCall(PPEGridSetDimension(grid, dim));
  PetscCall(PetscOptionsGetIntArray(((PetscObject)grid)->options, prefix, "-ppe_grid_n", n, &nn, &nflg));
  if (nflg && nn == 2) PetscCall(PPEGridImplyDimension(grid, 2, "-ppe_grid_n with two sizes"));
  PetscCall(PetscOptionsGetString(((PetscObject)grid)->options, prefix, "-ppe_bc", word, sizeof(word), &bflg));
  if (bflg) {
    size_t len;
    int    entries = 1;
    PetscCall(PetscStrlen(word, &len));
    for (size_t c = 0; c < len; c++) entries += word[c] == ',';
    if ((entries == 1 && len == 4) || entries == 4) PetscCall(PPEGridImplyDimension(grid, 2, "-ppe_bc with four boundary conditions"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The words of -ppe_bc: one word of 2 dim letters, or 2 dim names (or letters). */
static PetscErrorCode PPEGridSetBCWords(PPEGrid grid, PetscInt nbc, char *bcs[])
{
  MPI_Comm  comm = PetscObjectComm((PetscObject)grid);
  PetscInt  dim  = grid->dim;
  PPEBCType bc[6];
  PetscBool found;
  size_t    len = 0;

  PetscFunctionBegin;
  if (nbc == 1) PetscCall(PetscStrlen(bcs[0], &len));
  if (nbc == 1 && len == (size_t)(2 * dim)) {
    PetscCall(PPEGridSetBCString(grid, bcs[0]));
  } else {
    /* the face names of the grid's dimension: 8 characters "xlo,xhi," per direction */
    PetscCheck(nbc == 2 * dim, comm, PETSC_ERR_ARG_SIZ, "-ppe_bc needs %d boundary conditions (%.*s) or one %d-letter word on a %dD grid, got %" PetscInt_FMT " entries%s", 2 * (int)dim, 8 * (int)dim - 1, "xlo,xhi,ylo,yhi,zlo,zhi", 2 * (int)dim,
               (int)dim, nbc, nbc == 1 ? (len == 4 || len == 6 ? " (a word of the other dimension)" : " (one word of the wrong length)") : "");
    for (int f = 0; f < 2 * dim; f++) {
      PetscCall(PPEParseBC(bcs[f], &bc[f], &found));
      PetscCheck(found, comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown boundary condition name '%s' for face %s in -ppe_bc: use periodic, neumann, dirichlet (or P, N, D)", bcs[f], PPEFaces[f]);
    }
    PetscCall(PPEGridSetBCs(grid, bc));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The options themselves, inside the options block of PPEGridSetFromOptions(), which ends
   that block also when one of them is refused (the block's strings are freed by its end). */
static PetscErrorCode PPEGridSetFromOptions_Private(PPEGrid grid, PPEOptionItems PetscOptionsObject)
{
  /* one slot more than the largest count allowed: PETSc reads at most nmax values and
     drops the rest silently, so a wrong count must be able to show up */
  PetscInt       n[4] = {0}, nn = 4, np = 4, procs[4] = {0};
  PetscReal      L[4] = {0}, o[4] = {0}, factor, shift;
  PetscInt       nL = 4, no = 4, nbc = 7;
  char          *bcs[7] = {NULL};
  PetscBool      flg;
  PPELocation    loc;
  PPEStretchType st;
  MPI_Comm       comm;
  PetscInt       dim;

  PetscFunctionBegin;
  comm = PetscObjectComm((PetscObject)grid);
  PetscOptionsHeadBegin(PetscOptionsObject, "PPEGrid options");
  PetscCall(PPEGridSetDimensionFromOptions(grid));
  dim = grid->dim;
  PetscCall(PetscOptionsInt("-ppe_grid_dim", "Dimension of the grid: 2 or 3 (also implied by two values of -ppe_grid_n or four boundary conditions)", "PPEGridSetDimension", dim, &dim, &flg));
  if (flg) PetscCall(PPEGridSetDimension(grid, dim));
  for (int d = 0; d < 3; d++) {
    n[d]     = grid->uN[d];
    L[d]     = grid->uL[d];
    o[d]     = grid->uorigin[d];
    procs[d] = grid->uprocs[d];
  }
  dim = grid->dim;
  PetscCall(PetscOptionsIntArray("-ppe_grid_n", "Unknowns per direction nx,ny[,nz] (one value: every direction; two: a 2D grid)", "PPEGridSetSizes", n, &nn, &flg));
  if (flg) {
    PetscCheck(nn == 1 || nn == dim, comm, PETSC_ERR_ARG_SIZ, "-ppe_grid_n takes 1 or %d values on a %dD grid, got %" PetscInt_FMT, (int)dim, (int)dim, nn);
    if (nn == 1) n[1] = n[2] = n[0];
    PetscCall(PPEGridSetSizes(grid, n[0], n[1], n[2]));
  }
  PetscCall(PetscOptionsRealArray("-ppe_grid_L", "Box lengths Lx,Ly[,Lz] (one value: every direction)", "PPEGridSetLengths", L, &nL, &flg));
  if (flg) {
    PetscCheck(nL == 1 || nL == dim, comm, PETSC_ERR_ARG_SIZ, "-ppe_grid_L takes 1 or %d values on a %dD grid, got %" PetscInt_FMT, (int)dim, (int)dim, nL);
    if (nL == 1) L[1] = L[2] = L[0];
    PetscCall(PPEGridSetLengths(grid, L[0], L[1], L[2]));
  }
  PetscCall(PetscOptionsRealArray("-ppe_grid_origin", "Lower corner x0,y0[,z0]", "PPEGridSetOrigin", o, &no, &flg));
  if (flg) {
    PetscCheck(no == dim, comm, PETSC_ERR_ARG_SIZ, "-ppe_grid_origin takes %d values on a %dD grid, got %" PetscInt_FMT, (int)dim, (int)dim, no);
    PetscCall(PPEGridSetOrigin(grid, o[0], o[1], o[2]));
  }
  PetscCall(PetscOptionsStringArray("-ppe_bc", "Boundary conditions xlo,xhi,ylo,yhi[,zlo,zhi]: periodic|neumann|dirichlet or P|N|D (or one word like PPPPNN, PPNN in 2D)", "PPEGridSetBCs", bcs, &nbc, &flg));
  if (flg) {
    PetscErrorCode ierr = PPEGridSetBCWords(grid, nbc, bcs); /* the words are freed also when refused */
    for (int f = 0; f < nbc; f++) PetscCall(PetscFree(bcs[f]));
    PetscCall(ierr);
  }
  loc = grid->location;
  PetscCall(PetscOptionsEnum("-ppe_grid_location", "Location of the unknowns", "PPEGridSetLocation", PPELocations, (PetscEnum)loc, (PetscEnum *)&loc, &flg));
  if (flg) PetscCall(PPEGridSetLocation(grid, loc));
  st     = grid->stretch == PPE_STRETCH_USER ? PPE_STRETCH_NONE : grid->stretch;
  factor = grid->stretch_factor;
  PetscCall(PetscOptionsEnum("-ppe_grid_z_stretch", "Spacing of the z mesh lines (none, tanh)", "PPEGridSetZStretch", PPEStretchOptions, (PetscEnum)st, (PetscEnum *)&st, &flg));
  {
    PetscBool fflg;

    PetscCall(PetscOptionsReal("-ppe_grid_z_stretch_factor", "Clustering factor beta > 0 of the tanh stretching", "PPEGridSetZStretch", factor, &factor, &fflg));
    PetscCheck(!fflg || (factor > 0 && PetscIsNormalReal(factor)), comm, PETSC_ERR_ARG_OUTOFRANGE, "The tanh stretch factor must be positive and finite: got -ppe_grid_z_stretch_factor %g", (double)factor);
    if (flg) PetscCall(PPEGridSetZStretch(grid, st, factor));
    else if (fflg) grid->stretch_factor = factor;
  }
  {
    PetscInt       nz = grid->uN[dim - 1] + 3, nl = nz;
    PetscReal     *z;
    PetscErrorCode ierr;

    PetscCall(PetscCalloc1(nz, &z));
    ierr = PetscOptionsRealArray("-ppe_grid_z_lines", "z mesh lines: cell faces or vertex nodes from z0 to z1", "PPEGridSetZLines", z, &nl, &flg);
    if (!ierr && flg) ierr = PPEGridSetZLines(grid, nl, z);
    PetscCall(PetscFree(z)); /* also when the lines are refused */
    PetscCall(ierr);
  }
  shift = grid->shift;
  PetscCall(PetscOptionsReal("-ppe_grid_shift", "Helmholtz shift sigma >= 0 of W (sigma I - Lap)", "PPEGridSetShift", shift, &shift, &flg));
  if (flg) PetscCall(PPEGridSetShift(grid, shift));
  PetscCall(PetscOptionsIntArray("-ppe_grid_procs", "Process grid px,py,pz of the DMDA", "PPEGridSetProcesses", procs, &np, &flg));
  if (flg) {
    PetscCheck(np == dim, comm, PETSC_ERR_ARG_SIZ, "-ppe_grid_procs takes %d values on a %dD grid, got %" PetscInt_FMT, (int)dim, (int)dim, np);
    PetscCall(PPEGridSetProcesses(grid, procs[0], procs[1], procs[2]));
  }
  PetscCall(PetscOptionsName("-ppe_grid_view", "View the grid after set-up", "PPEGridView", NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
   PPEGridSetFromOptions - reads the grid's options

   Collective

   Options Database Keys:
+  -ppe_grid_dim <2,3> - dimension (see PPEGridSetDimension())
.  -ppe_grid_n <nx,ny[,nz]> - sizes (two values: a 2D grid)
.  -ppe_grid_L <Lx,Ly[,Lz]> - lengths
.  -ppe_grid_origin <x0,y0[,z0]> - lower corner
.  -ppe_bc <xlo,xhi,ylo,yhi[,zlo,zhi]> - boundary conditions (periodic|neumann|dirichlet or P|N|D;
                                        four: a 2D grid)
.  -ppe_grid_location <cell,vertex> - location of the unknowns
.  -ppe_grid_z_stretch <none,tanh> - spacing of the last direction (z; y in 2D)
.  -ppe_grid_z_stretch_factor <beta> - tanh clustering factor
.  -ppe_grid_z_lines <z0,...> - mesh lines of the last direction given explicitly
.  -ppe_grid_shift <sigma> - Helmholtz shift
.  -ppe_grid_procs <px,py[,pz]> - process grid
-  -ppe_grid_view - view the grid after set-up

   Level: beginner
@*/
PetscErrorCode PPEGridSetFromOptions(PPEGrid grid)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(grid, PPEGRID_CLASSID, 1);
  PetscCall(PPEGridCheckListOptions(grid));
  PetscObjectOptionsBegin((PetscObject)grid);
  ierr = PPEGridSetFromOptions_Private(grid, PetscOptionsObject);
  PetscOptionsEnd();
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}
