/*
   Private interface of the geometric multigrid hierarchy (src/mg/): coarse grids whose DMDAs
   are aligned with the fine one (each rank owns the parents of its own fine points), the
   coarse operators' face coefficients coarsened from the fine ones, and the transfers between
   two levels (piecewise-constant between cells, linear between nodes: src/mg/mgvertex.c). PC ppemg (plugins/pc/ppemg) is the PETSc glue around PCMG.
*/
#pragma once

#include <ppekit/private/stencilimpl.h>

/* How the face coefficients of a coarse level come from the fine ones. */
typedef enum {
  PPE_MG_COARSEN_HARMONIC, /* harmonic along the face normal (the three fine faces in series), sum across */
  PPE_MG_COARSEN_AVERAGE   /* the fine faces that coincide with the coarse face, summed (no normal averaging) */
} PPEMGCoarsenRule;
PETSC_EXTERN const char *const PPEMGCoarsenRules[];

/* The smallest spacing of a direction: its narrowest mesh interval (cell width or distance
   between nodes). */
PETSC_INTERN PetscReal PPEMGMinSpacing(const PPEGrid1d *);
/* The node index of unknown 0 along a vertex-centred direction: 1 after a Dirichlet end node
   (not an unknown), else 0. */
static inline PetscInt PPEMGVertexFirst(const PPEGrid1d *g)
{
  return g->bc[0] == PPE_BC_DIRICHLET ? 1 : 0;
}
/* The extent of a block of m points coarsened by c (1 or 2): pairs, and a lone last point
   where m is odd. */
PETSC_INTERN PetscInt PPEMGCoarseExtent(PetscInt, int);
/* Whether the lone cell of the block of m cells from global index s of direction g, coarsened
   by c, is its first (1) or its last (0): the wider of the two end cells stays alone, so that
   the narrow lone cell of the level above is paired and the widths of a deep hierarchy stay
   within a small factor of each other; 0 where no cell is alone. */
PETSC_INTERN PetscInt PPEMGLoneFirst(const PPEGrid1d *, PetscInt, PetscInt, int);
/* The coarsening plan of a fine grid, at most maxlev grids (the fine one included): below each
   level the strong directions (spacing within sqrt(2) of the smallest; never the kernels' z
   with keepz, which line smoothers solve exactly) are halved, c[l][d] = 2, the others kept,
   c[l][d] = 1, while every rank owns at least 2 points along a halved direction and the global
   size stays at least min_n; the global sizes of the grids in N (may be NULL), their number in
   nlev and the reason coarsening stops there in why. */
PETSC_INTERN PetscErrorCode PPEMGMaxLevels(PPEGrid, PetscBool, PetscInt, PetscInt, int[][3], PetscInt[][3], PetscInt *, char[], size_t);
/* The grid one level coarser: same box, BCs, location, shift; in every rank's block along a
   direction with c[d] = 2 each pair of fine cells is a coarse cell (a lone last cell where the
   block is odd: the spacing becomes non-uniform there), z lines kept from the fine ones; its
   DMDA owned in aligned blocks. A vertex-centred grid keeps every second node instead
   (PPEMGVertexSelect), each on the rank of its fine node. */
PETSC_INTERN PetscErrorCode PPEMGGridCoarsen(PPEGrid, const int[3], PPEGrid *);
/* The factor between a fine operator's scaling and its coarse grid's (per halved direction
   href_fine / href_coarse: 1/2 where the blocks halve evenly); the restriction's weight. */
PETSC_INTERN PetscReal PPEMGCoarseScale(PPEGrid, PPEGrid);
/* The z-line smoother's preconditioner: pc becomes a PCSHELL applying T^-1, T the tridiagonal
   part along the kernels' z of its operator (a MATPPESTENCIL): every z line solved exactly by a
   PPETridiag batch on the ranks that share the line; remade from the operator at each set-up. */
PETSC_INTERN PetscErrorCode PPEMGLinePCCreate(PC);
/* The coefficients of coarse operator Ac (MATPPESTENCIL on the coarser grid) from fine operator
   Af: constant on the coarse grid if Af is constant, else the fine face arrays coarsened by the
   rule; in the coarse grid's own scaling (PPEMGCoarseScale: 1/2^c, c the coarsened directions,
   where every block halves evenly). */
PETSC_INTERN PetscErrorCode PPEMGCoarsenOperator(Mat, Mat, PPEMGCoarsenRule);
/* Shell matrices of the transfers between a fine grid and its coarsening: P (fine x coarse,
   piecewise-constant interpolation) and R (coarse x fine, P^T times PPEMGCoarseScale: the
   average of the children, 1/2^c, where every block halves evenly). */
PETSC_INTERN PetscErrorCode PPEMGTransferCreate(PPEGrid, PPEGrid, Mat *, Mat *);
/* The part of a transfer's context (the first member of each kind's: piecewise-constant between
   cells, linear between nodes) that the shared shell code reads: yf (+)= a P xc and
   yc (+)= a P^T xf, and the restriction's weight (PPEMGCoarseScale, set by PPEMGTransferShell). */
typedef struct {
  PetscReal avg;
  PetscBool restrict_op; /* R (coarse x fine) rather than P (fine x coarse) */
  PetscErrorCode (*prolong)(void *, PetscReal, Vec, Vec, PetscBool);
  PetscErrorCode (*restrict_)(void *, PetscReal, Vec, Vec, PetscBool);
} PPEMGTransferOps;
/* The shell matrix of a transfer over ctx (its first member a PPEMGTransferOps), destroyed with
   destroy, named name. */
PETSC_INTERN PetscErrorCode PPEMGTransferShell(PPEGrid, PPEGrid, void *, PetscErrorCode (*)(PPECtxDestroyArg), const char *, Mat *);
/* A DMDA of dim dimensions, sizes M, process grid p, boundary types bt, ownership ranges l (user
   directions), one dof, stencil type st of width 1. */
PETSC_INTERN PetscErrorCode PPEMGCreateDMDA(MPI_Comm, PetscInt, const PetscInt[3], const PetscInt[3], const DMBoundaryType[3], const PetscInt *[3], DMDAStencilType, DM *);
/* Ghosted box (start and extent, kernel order) of a local vector of DMDA da of a dim-D grid. */
PETSC_INTERN PetscErrorCode PPEMGGhostBox(DM, PetscInt, PetscInt[3], PetscInt[3]);
/* Vertex-centred levels (src/mg/mgvertex.c). The nodes 0..nint (coordinates l) a halved
   direction keeps, both ends included: every second one, and where nint is odd the wider end
   interval alone; their indices into sel (room for nint + 1), their number returned. */
PETSC_INTERN PetscInt PPEMGVertexSelect(PetscInt, const PetscReal[], PetscInt[]);
/* The coarse extents ext[0..P-1] of ranks owning own[0..P-1] unknowns of a vertex-centred
   direction (nodes l[0..nint], unknown 0 at node first) once halved; their sum returned, the
   selection left in sel. */
PETSC_INTERN PetscInt PPEMGVertexExtents(PetscInt, const PetscReal[], PetscInt, PetscInt, const PetscInt[], PetscInt[], PetscInt[]);
/* Linear interpolation P and R = P^T PPEMGCoarseScale between vertex-centred levels. */
PETSC_INTERN PetscErrorCode PPEMGVertexTransferCreate(PPEGrid, PPEGrid, Mat *, Mat *);
/* The face coefficients of vertex-centred coarse operator Ac from the variable fine one Af:
   beta of the fine faces between two coarse nodes averaged by the rule, injected across. */
PETSC_INTERN PetscErrorCode PPEMGVertexCoarsenOperator(Mat, Mat, PPEMGCoarsenRule);
