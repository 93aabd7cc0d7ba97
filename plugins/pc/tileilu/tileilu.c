/*
   PCTILEILU: block-Jacobi ILU(0) on small tiles of each rank's box, with the factors and
   sweeps in the natural (xyz) layout or packed over tiles (zyx).

   Method:
     Each rank's box of the DMDA is cut into tiles of bx x by x bz points (smaller tiles at
     the upper ends when the shape does not divide the box). The 7-point operator restricted
     to a tile (couplings leaving the tile dropped) is factorised by ILU(0) once at set-up;
     every application runs a forward and a backward sweep on every tile. Tiles are
     independent, so they can run in SIMD lanes (host) or one GPU thread each, at the price
     of more Krylov iterations as the tiles shrink. With one tile per rank it is PETSc's
     bjacobi with ILU(0) sub-solves.

     Layout xyz: each tile is swept in place in the vector's order. Layout zyx: the factors
     are permuted at set-up so that the same point of consecutive tiles is contiguous, and
     each application gathers the values into that layout, sweeps groups of tiles in SIMD
     lanes, and scatters them back. Both give the same numbers.

     The coefficients come from the grid of a MATPPESTENCIL operator, or from the rows of an
     assembled matrix on a DMDA (MatGetDM(), or the PC's DM).

     2D: the 5-point operator of a 2D grid or DMDA is the 7-point one on its 3D box
     nx x 1 x ny (the user's y is direction z there), so the tiles are tx x 1 x ty and the
     same code runs; the shape is given and shown as tx x ty, and the layouts are named xy
     (xyz) and yx (zyx).

   The type (options, set-up, apply, view, life cycle) is here, its public functions in
   tileiluapi.c. The numerics are in src/tileilu/, the sweep bodies in src/kernels/tileilu.h.

   References:
     Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of communication
     avoiding Chebyshev basis conjugate gradient solver for multiphase CFD simulations", ScalA
     workshop at SC19 (IEEE/ACM), 2019, sec. IV.B, Fig. 1 and Table I (block-Jacobi ILU on GPU
     tiles, xyz -> zyx transpose).
     S. Akkurt, S. Lemaire, P. Bartholomew and S. Laizet, "A distributed-memory tridiagonal
     solver based on a specialised data structure optimised for CPU and GPU architectures",
     Computer Physics Communications, 2025 (arXiv:2411.13532), sec. 4.1 (SZ-packed batches).
     Y. Saad, Iterative Methods for Sparse Linear Systems, 2nd ed., SIAM, 2003, sec. 10.3 (ILU(0)).
*/
#include <petsc/private/pcimpl.h>
#include <ppekit/private/backendimpl.h>
#include <ppekit/private/tileiluimpl.h>
#include "../../pluginimpl.h"

const char *const PCTileILULayouts[] = {"xyz", "zyx", "PCTileILULayout", "PC_TILEILU_LAYOUT_", NULL};
/* The names -pc_tileilu_layout accepts: the 3D ones, then the 2D names of the same layouts */
static const char *const PCTileILULayoutNames[] = {"xyz", "zyx", "xy", "yx"};

/* Default tile shape and layout, from the CG times to solution measured on 1 rank at
   128 x 64 x 256 (docs/types/tileilu.md): among the fastest both on the closed box and on the
   stretched channel (fewest iterations of the shapes with a fast apply on both), and still 16
   tiles (two full SIMD groups) on a box of 32^3 points. */
static const PetscInt PCTileILUDefaultTile[3] = {8, 8, 32};
/* Default 2D tile shape tx x ty, from the CG iterations and times measured on 1 rank at 512^2
   (docs/types/tileilu.md): of the shapes that keep 16 tiles (two full SIMD groups) on a box of
   128^2 points, the fewest iterations on both the uniform NNDD box and the tanh-stretched
   channel (tall tiles follow the strong coupling of the stretched y), at the same time per
   iteration as the others within the noise. */
static const PetscInt PCTileILUDefaultTile2d[3] = {16, 64, 1};
/* The default shape in the user's directions of an operator of dimension dim (0: not set up yet). */
static const PetscInt *const PCTileILUDefaultTiles[4] = {PCTileILUDefaultTile, PCTileILUDefaultTile, PCTileILUDefaultTile2d, PCTileILUDefaultTile};
/* The names of the layouts on an operator of dimension dim: xy and yx in 2D */
static const char *const PCTileILUDimLayouts[4][2] = {
  {"xyz", "zyx"},
  {"xyz", "zyx"},
  {"xy",  "yx" },
  {"xyz", "zyx"}
};
static const PCTileILULayout PCTileILUDefaultLayout = PC_TILEILU_LAYOUT_ZYX;
/* Default of -pc_tileilu_fuse: each group of tiles is gathered, swept and scattered while its
   buffer is in cache; the three separate passes exist to time the layout change (same numbers). */
static const PetscBool PCTileILUDefaultFuse = PETSC_TRUE;

typedef struct {
  PetscInt        tile[3]; /* requested tile shape bx, by, bz (clamped to each rank's box at set-up); 2D: tx = bx, ty = by */
  PetscInt        ntile;   /* how it was given: 0 not (the defaults), 2 as tx,ty (2D operators only), 3 as bx,by,bz */
  PCTileILULayout layout;  /* layout of the factors and of the sweeps */
  PetscInt        namedim; /* the dimension whose name of the layout was given: 2 for xy or yx (2D operators only), else 0 */
  PetscInt        dim;     /* dimension of the operator at the last set-up (0 before) */
  PetscBool       fuse;    /* zyx: gather, sweep and scatter group by group (else three timed passes) */
  PetscBool       matfree; /* the coefficients came from the grid of a MATPPESTENCIL (else from matrix rows) */
  MatType         mtype;   /* type of the matrix the coefficients came from */
  PPETileILU      T;       /* tiling and factors of this rank */
} PC_TileILU;

static PetscErrorCode PCTileILUSetTile_TileILU(PC pc, PetscInt bx, PetscInt by, PetscInt bz)
{
  PC_TileILU *ti = (PC_TileILU *)pc->data;

  PetscFunctionBegin;
  PetscCheck(bx >= 1 && by >= 1 && bz >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC tileilu: tile sizes must be >= 1, got %" PetscInt_FMT " x %" PetscInt_FMT " x %" PetscInt_FMT, bx, by, bz);
  if (bx != ti->tile[0] || by != ti->tile[1] || bz != ti->tile[2] || ti->ntile != 3) pc->setupcalled = 0; /* refactorise at the next set-up */
  ti->tile[0] = bx;
  ti->tile[1] = by;
  ti->tile[2] = bz;
  ti->ntile   = 3;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCTileILUGetTile_TileILU(PC pc, PetscInt *bx, PetscInt *by, PetscInt *bz)
{
  PC_TileILU *ti = (PC_TileILU *)pc->data;

  PetscFunctionBegin;
  if (bx) *bx = ti->tile[0];
  if (by) *by = ti->tile[1];
  if (bz) *bz = ti->tile[2];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCTileILUSetLayout_TileILU(PC pc, PCTileILULayout layout)
{
  PC_TileILU *ti = (PC_TileILU *)pc->data;

  PetscFunctionBegin;
  PetscCheck(layout == PC_TILEILU_LAYOUT_XYZ || layout == PC_TILEILU_LAYOUT_ZYX, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "PC tileilu: unknown layout %d; use PC_TILEILU_LAYOUT_XYZ or PC_TILEILU_LAYOUT_ZYX", (int)layout);
  if (layout != ti->layout) pc->setupcalled = 0;
  ti->layout  = layout;
  ti->namedim = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PPE_IMPL_SETTER(PCTileILUSetFuse_TileILU, PC, pc, PC_TileILU, PetscBool, fuse, fuse, , pc->setupcalled = 0)

PPE_IMPL_GETTER(PCTileILUGetFuse_TileILU, PC, pc, PC_TileILU, PetscBool, fuse, impl->fuse)

PPE_IMPL_GETTER(PCTileILUGetLayout_TileILU, PC, pc, PC_TileILU, PCTileILULayout, layout, impl->layout)

static PetscErrorCode PCTileILUGetInfo_TileILU(PC pc, PetscInt tile[3], PetscInt *ntiles, PetscLogDouble *bytes)
{
  PC_TileILU *ti = (PC_TileILU *)pc->data;

  PetscFunctionBegin;
  PetscCheck(pc->setupcalled, PetscObjectComm((PetscObject)pc), PETSC_ERR_ORDER, "Call PCSetUp() before PCTileILUGetInfo()");
  if (tile) { /* the user's directions: tx x ty and 1 for the missing z in 2D */
    int dir[3], nd = PPETileILUUserDirs(ti->T.dim, dir);

    for (int i = 0; i < 3; i++) tile[i] = i < nd ? ti->T.tile[dir[i]] : 1;
  }
  if (ntiles) *ntiles = ti->T.ntiles;
  if (bytes) *bytes = (PetscLogDouble)PPETileILUMemory(&ti->T);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The shape asked for in the user's directions (tx, ty of a 2D operator; bx, by, bz of a 3D
   one): as given, or the default of the operator's dimension. */
static void RequestedUser(const PC_TileILU *ti, PetscInt dim, PetscInt u[3])
{
  for (int i = 0; i < 3; i++) u[i] = ti->ntile ? ti->tile[i] : PCTileILUDefaultTiles[dim][i];
}

/* The same on the box: a 2D operator is tiled tx x 1 x ty on its box nx x 1 x ny. */
static void RequestedBox(const PC_TileILU *ti, PetscInt dim, PetscInt req[3])
{
  PetscInt u[3];
  int      dir[3], nd = PPETileILUUserDirs(dim, dir);

  RequestedUser(ti, dim, u);
  for (int i = 0; i < 3; i++) req[dir[i]] = i < nd ? u[i] : 1;
}

/* The shape asked for, on the box of the source; a shape of 2 sizes or 2D layout names only
   on a 2D operator. */
static PetscErrorCode RequestedTile(PC pc, const PPETileILUSource *src, PetscInt req[3])
{
  PC_TileILU *ti   = (PC_TileILU *)pc->data;
  MPI_Comm    comm = PetscObjectComm((PetscObject)pc);
  int         dir[3], nd = PPETileILUUserDirs(src->dim, dir);

  PetscFunctionBegin;
  PetscCheck(ti->ntile == 0 || ti->ntile == 3 || ti->ntile == src->dim, comm, PETSC_ERR_ARG_INCOMP, "PC tileilu: -pc_tileilu_tile %" PetscInt_FMT ",%" PetscInt_FMT " is a 2D tile shape tx,ty, but the operator is 3D: give bx,by,bz", ti->tile[0],
             ti->tile[1]);
  PetscCheck(ti->namedim == 0 || ti->namedim == src->dim, comm, PETSC_ERR_ARG_INCOMP, "PC tileilu: -pc_tileilu_layout %s names a layout of 2D tiles, but the operator is 3D: use %s", PCTileILUDimLayouts[2][ti->layout], PCTileILULayouts[ti->layout]);
  RequestedBox(ti, src->dim, req);
  if (ti->ntile > nd && ti->tile[nd] != 1) {
    char shape[96];

    PetscCall(PPETileILUFormat(src->dim, NULL, req, shape, sizeof(shape)));
    PetscCall(PetscInfo(pc, "2D operator: tiles of %s (the z size %" PetscInt_FMT " of the shape is not used)\n", shape, ti->tile[nd]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_TileILU(PC pc)
{
  PC_TileILU      *ti = (PC_TileILU *)pc->data;
  PPETileILUSource src;
  PetscInt         req[3];
  PPEBackend       b;

  PetscFunctionBegin;
  PetscCall(PPETileILUSourceCreate(pc->pmat, pc->dm, &src));
  ti->matfree = (PetscBool)(src.grid != NULL);
  ti->dim     = src.dim;
  PetscCall(MatGetType(pc->pmat, &ti->mtype));
  PetscCall(RequestedTile(pc, &src, req));
  if (req[0] > src.m[0] || req[1] > src.m[1] || req[2] > src.m[2]) {
    PetscInt used[3] = {PetscMin(req[0], src.m[0]), PetscMin(req[1], src.m[1]), PetscMin(req[2], src.m[2])};
    char     r[96], m[96], u[96];

    PetscCall(PPETileILUFormat(src.dim, NULL, req, r, sizeof(r)));
    PetscCall(PPETileILUFormat(src.dim, NULL, src.m, m, sizeof(m)));
    PetscCall(PPETileILUFormat(src.dim, NULL, used, u, sizeof(u)));
    PetscCall(PetscInfo(pc, "Tile %s is larger than the local box %s: clamped to %s\n", r, m, u));
  }
  PetscCall(PPEBackendGetDefault(PetscObjectComm((PetscObject)pc), &b)); /* -ppe_backend */
  PetscCall(PPETileILUSetUp(&ti->T, &src, req, ti->layout, ti->fuse, b, PetscObjectComm((PetscObject)pc)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = M^-1 x (M^-T x): forward and backward sweeps on every tile, on the PC's back end with x
   and y in its memory (in place where they live there, else staged). */
static PetscErrorCode PCApply_TileILU_Private(PC pc, PetscBool transpose, Vec x, Vec y)
{
  PC_TileILU *ti     = (PC_TileILU *)pc->data;
  Vec         v[2]   = {x, y};
  PPEAccess   acc[2] = {PPE_ACCESS_READ, PPE_ACCESS_WRITE};
  PPEArrays   A;

  PetscFunctionBegin;
  PetscCall(PPEArraysGet(ti->T.backend, 2, v, acc, PPE_ACCESS_READ, &A));
  PetscCall(PPETileILUApply(&ti->T, transpose, A.a[0], A.a[1]));
  PetscCall(PPEArraysRestore(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_TileILU(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCApply_TileILU_Private(pc, PETSC_FALSE, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApplyTranspose_TileILU(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCApply_TileILU_Private(pc, PETSC_TRUE, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_TileILU(PC pc, PPEOptionItems PetscOptionsObject)
{
  PC_TileILU *ti      = (PC_TileILU *)pc->data;
  PetscInt    tile[4] = {ti->tile[0], ti->tile[1], ti->tile[2], 0}, n = 4; /* a 4th slot: PETSc drops extra values silently */
  PetscInt    name = (PetscInt)ti->layout + (ti->namedim ? 2 : 0);
  PetscBool   flg, fuse = ti->fuse;

  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "PC TileILU options");
  PetscCall(PetscOptionsIntArray("-pc_tileilu_tile", "Tile shape bx,by,bz, or tx,ty on a 2D operator (clamped to the local box; default 8,8,32 in 3D, 16,64 in 2D)", "PCTileILUSetTile", tile, &n, &flg));
  if (flg) {
    PetscCheck(n == 3 || n == 2, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_SIZ, "-pc_tileilu_tile needs 3 sizes bx,by,bz (or 2 sizes tx,ty on a 2D operator), got %" PetscInt_FMT, n);
    if (n == 3) PetscCall(PCTileILUSetTile(pc, tile[0], tile[1], tile[2]));
    else {
      PetscCall(PCTileILUSetTile(pc, tile[0], tile[1], 1));
      ti->ntile = 2;
    }
  }
  PetscCall(PetscOptionsEList("-pc_tileilu_layout", "Layout of the factors and sweeps (xy, yx: the names of xyz, zyx on a 2D operator)", "PCTileILUSetLayout", PCTileILULayoutNames, 4, PCTileILULayoutNames[name], &name, &flg));
  if (flg) {
    PetscCall(PCTileILUSetLayout(pc, (PCTileILULayout)(name % 2)));
    ti->namedim = name >= 2 ? 2 : 0;
  }
  PetscCall(PetscOptionsBool("-pc_tileilu_fuse", "zyx (yx in 2D): gather, sweep and scatter group by group (else three passes, each timed)", "PCTileILUSetFuse", fuse, &fuse, &flg));
  if (flg) PetscCall(PCTileILUSetFuse(pc, fuse));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_TileILU(PC pc, PetscViewer viewer)
{
  PC_TileILU *ti = (PC_TileILU *)pc->data;
  PPETileILU *T  = &ti->T;
  PetscBool   iascii;
  MPI_Comm    comm = PetscObjectComm((PetscObject)pc);
  PetscMPIInt size;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  {
    static const char *const what[2] = {"natural order, one tile after the other", "same point of consecutive tiles contiguous, tiles in SIMD lanes"};
    /* by dimension: what the shape and the names of the layouts are in 2D */
    static const char *const shapenote[4][2] = {
      {"",                                                 ""                   },
      {"",                                                 ""                   },
      {" (2D tiles tx x ty, the default of 2D operators)", " (2D tiles tx x ty)"},
      {"",                                                 ""                   }
    };
    static const char *const namenote[4][2] = {
      {"",                 ""                },
      {"",                 ""                },
      {"2D name of xyz: ", "2D name of zyx: "},
      {"",                 ""                }
    };
    PetscInt req[3];
    char     shape[96];

    RequestedBox(ti, ti->dim, req);
    PetscCall(PPETileILUFormat(ti->dim, NULL, req, shape, sizeof(shape)));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  tile shape requested: %s%s\n", shape, shapenote[ti->dim][ti->ntile ? 1 : 0]));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  layout: %s (%s%s)\n", PCTileILUDimLayouts[ti->dim][ti->layout], namenote[ti->dim][ti->layout], what[ti->layout]));
  }
  if (!pc->setupcalled || !T->f) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "  not set up\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  {
    /* [0] tiles, [1] edge tiles, [2] clamped, [3] points, [4] padded points, [5] bytes */
    PetscLogDouble loc[6], sum[6], mx[2], mn;
    PetscInt       req[3], clamped, pts = T->layout == PC_TILEILU_LAYOUT_ZYX ? T->ngroups * T->lanes * T->npos : T->nloc;
    char           used[96], box[96], nt[96];

    RequestedBox(ti, T->dim, req);
    PetscCall(PPETileILUFormat(T->dim, NULL, T->tile, used, sizeof(used)));
    PetscCall(PPETileILUFormat(T->dim, NULL, T->box, box, sizeof(box)));
    PetscCall(PPETileILUFormat(T->dim, NULL, T->nt, nt, sizeof(nt)));
    clamped = (T->tile[0] < req[0] || T->tile[1] < req[1] || T->tile[2] < req[2]);
    loc[0]  = T->ntiles;
    loc[1]  = T->nedge;
    loc[2]  = clamped;
    loc[3]  = T->nloc;
    loc[4]  = pts - T->nloc;
    loc[5]  = (PetscLogDouble)PPETileILUMemory(T);
    PetscCall(MPIU_Allreduce(loc, sum, 6, MPIU_PETSCLOGDOUBLE, MPI_SUM, comm));
    PetscCall(MPIU_Allreduce(loc, mx, 1, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
    PetscCall(MPIU_Allreduce(&loc[5], &mx[1], 1, MPIU_PETSCLOGDOUBLE, MPI_MAX, comm));
    PetscCall(MPIU_Allreduce(loc, &mn, 1, MPIU_PETSCLOGDOUBLE, MPI_MIN, comm));
    if (sum[2] > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  tile shape used: %s (rank 0), clamped to the local box on %.0f of %d ranks\n", used, sum[2], (int)size));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  tile shape used: %s\n", used));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  local box: %s (rank 0), %s tiles\n", box, nt));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  number of tiles: %.0f (per rank %.0f to %.0f), of which %.0f smaller edge tiles\n", sum[0], mn, mx[0], sum[1]));
    if (T->layout == PC_TILEILU_LAYOUT_ZYX)
      PetscCall(PetscViewerASCIIPrintf(viewer, "  %s groups: %" PetscInt_FMT " tiles per group, %" PetscInt_FMT " groups per gather (rank 0), padded points %.1f%%, gather/sweep/scatter %s\n", PCTileILUDimLayouts[T->dim][PC_TILEILU_LAYOUT_ZYX],
                                       T->lanes, T->chunk, 100.0 * sum[4] / (sum[3] + sum[4]), T->fused ? "fused chunk by chunk" : "as three passes"));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  factors: %s, %" PetscInt_FMT " values per point (rank 0)\n", T->sym ? "symmetric operator" : "nonsymmetric operator", T->nc));
    PetscCall(PetscViewerASCIIPushTab(viewer));
    PetscCall(PPEBackendView(T->backend, viewer));
    PetscCall(PetscViewerASCIIPopTab(viewer));
    PetscCall(PetscViewerASCIIPrintf(viewer, "  memory: %.4g MB in total, %.4g MB per rank at most, %.1f bytes per point%s\n", sum[5] / 1048576.0, mx[1] / 1048576.0, sum[5] / sum[3], T->ft ? " (with the factors of the transpose)" : ""));
    if (ti->matfree) PetscCall(PetscViewerASCIIPrintf(viewer, "  coefficients: from the grid of the matrix-free %s operator\n", ti->mtype));
    else PetscCall(PetscViewerASCIIPrintf(viewer, "  coefficients: from the rows of the assembled %s matrix\n", ti->mtype));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCReset_TileILU(PC pc)
{
  PC_TileILU *ti = (PC_TileILU *)pc->data;

  PetscFunctionBegin;
  PetscCall(PPETileILUReset(&ti->T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The back end of the applications (device-resident vectors are used in place there). */
PPE_IMPL_GETTER(PCGetDeviceBackend_TileILU, PC, pc, PC_TileILU, PPEBackend, b, impl->T.backend)

/* The methods PCCreate_TileILU() composes and PCDestroy_TileILU() removes */
static const PPEMethod PCTileILUMethods[] = {
  PPE_METHOD(PPEPCGetDeviceBackend, PCGetDeviceBackend_TileILU), PPE_METHOD(PCTileILUSetTile, PCTileILUSetTile_TileILU), PPE_METHOD(PCTileILUGetTile, PCTileILUGetTile_TileILU), PPE_METHOD(PCTileILUSetLayout, PCTileILUSetLayout_TileILU),
  PPE_METHOD(PCTileILUGetLayout, PCTileILUGetLayout_TileILU),    PPE_METHOD(PCTileILUSetFuse, PCTileILUSetFuse_TileILU), PPE_METHOD(PCTileILUGetFuse, PCTileILUGetFuse_TileILU), PPE_METHOD(PCTileILUGetInfo, PCTileILUGetInfo_TileILU),
};

static PetscErrorCode PCDestroy_TileILU(PC pc)
{
  PetscFunctionBegin;
  PetscCall(PCReset_TileILU(pc));
  PetscCall(PPEComposeMethods(pc, PCTileILUMethods, PETSC_FALSE));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCTILEILU - "tileilu" - block-Jacobi ILU(0) of the 7-point operator on small tiles of each
   rank's box, with the sweeps in the vector's layout (xyz) or over tiles in SIMD lanes (zyx)

   Options Database Keys:
+  -pc_tileilu_tile <bx,by,bz or tx,ty> - tile shape (default PCTileILUDefaultTile = 8,8,32, PCTileILUDefaultTile2d = 16,64 on a 2D operator); clamped to the local box (PetscInfo notes it)
.  -pc_tileilu_layout <xyz|zyx|xy|yx> - layout of the factors and sweeps (default PCTileILUDefaultLayout = zyx); xy and yx are the names of xyz and zyx on a 2D operator
-  -pc_tileilu_fuse <bool> - zyx: gather, sweep and scatter group by group (default PCTileILUDefaultFuse = true) or in three timed passes

   Level: intermediate

   Notes:
   The operator must live on a 2D or 3D DMDA with one degree of freedom: a MATPPESTENCIL matrix
   (coefficients from its grid) or an assembled matrix made by DMCreateMatrix() (coefficients
   read from the rows of its local diagonal block, which must be 7-point, or 5-point in 2D).
   On a 2D operator the tiles are tx x ty: PCTileILUSetTile(pc, tx, ty, bz) ignores bz, and
   two sizes tx,ty are accepted only there (as are the layout names xy and yx). The couplings that
   leave a tile are dropped, and so are periodic wrap couplings (a tile is a box of
   the index space): with one tile per rank the preconditioner equals PETSc's bjacobi with
   ILU(0) sub-solves, except on a rank that owns a whole periodic direction, whose block
   PETSc factorises with the wrap couplings. Tiles that do not divide the box are smaller at
   its upper ends. A zero pivot is an error naming the tile. Smaller tiles cost more
   iterations; the zyx layout makes small tiles fast on the host (SIMD over tiles) and is the
   coalesced layout of one GPU thread per tile. M is symmetric when the operator is, so CG
   applies; PCApplyTranspose() is supported.

   References:
   Y. Ali, N. Onodera, Y. Idomura, T. Ina and T. Imamura, "GPU acceleration of communication
   avoiding Chebyshev basis conjugate gradient solver for multiphase CFD simulations", ScalA
   workshop at SC19 (IEEE/ACM), 2019, sec. IV.B and Table I; S. Akkurt, S. Lemaire,
   P. Bartholomew and S. Laizet, "A distributed-memory tridiagonal solver based on a specialised
   data structure optimised for CPU and GPU architectures", Computer Physics Communications,
   2025 (arXiv:2411.13532), sec. 4.1; docs/types/tileilu.md

.seealso: PCBJACOBI, PCILU, PCTileILUSetTile(), PCTileILUSetLayout(), PCTileILUGetInfo()
M*/
PETSC_EXTERN PetscErrorCode PCCreate_TileILU(PC pc)
{
  PC_TileILU *ti;

  PetscFunctionBegin;
  PetscCall(PetscNew(&ti));
  pc->data = (void *)ti;
  for (int d = 0; d < 3; d++) ti->tile[d] = PCTileILUDefaultTile[d];
  ti->layout = PCTileILUDefaultLayout;
  ti->fuse   = PCTileILUDefaultFuse;

  pc->ops->setup          = PCSetUp_TileILU;
  pc->ops->apply          = PCApply_TileILU;
  pc->ops->applytranspose = PCApplyTranspose_TileILU;
  pc->ops->setfromoptions = PCSetFromOptions_TileILU;
  pc->ops->view           = PCView_TileILU;
  pc->ops->reset          = PCReset_TileILU;
  pc->ops->destroy        = PCDestroy_TileILU;

  PetscCall(PPEComposeMethods(pc, PCTileILUMethods, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
