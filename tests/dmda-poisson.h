/*
   Pressure-Poisson matrices assembled the way PETSc's DMDA tutorials assemble them
   (DMCreateMatrix + MatSetValuesStencil), with no PPEKit code: shared by the linked inference
   test (t409) and the application test that is not linked with libppekit (t621).

     DP_VERTEX_DIRICHLET  vertex-centred on [0,1]^3, Dirichlet nodes kept as scaled identity
                          rows on all six faces, interior rows volume-weighted (hx*hy*hz-style
                          factors) and still coupled to the boundary nodes (as KSP ex45 does)
     DP_CELL_NEUMANN      cell-centred, homogeneous Neumann on all faces by reduced diagonals
                          (the missing neighbour's flux is dropped, as ex32/ex34 do): singular
     DP_CELL_VARCOEF      cell-centred, Neumann in x and y, Dirichlet walls in z eliminated
                          (ghost value -u, [3,-1]), with a coefficient 1 + a sin(pi x) varying
                          in x: symmetric positive definite and not separable
     DP_VERTEX_CHANNEL    periodic in x and y (periodic DMDA), vertex-centred in z with
                          identity-row Dirichlet nodes on the two z walls only
   Optionally the z mesh is stretched (cosine clustering at both z faces).
*/
#pragma once

#include <petscdmda.h>
/* PETSc's own API across releases (header-only: these programs do not link libppekit) */
#include <ppekit/private/petsccompat.h>

typedef enum {
  DP_VERTEX_DIRICHLET,
  DP_CELL_NEUMANN,
  DP_CELL_VARCOEF,
  DP_VERTEX_CHANNEL
} DPKind;
static const char *const DPKinds[] = {"vertex-dirichlet", "cell-neumann", "cell-varcoef", "vertex-channel", "DPKind", "DP_", NULL};

typedef struct {
  DPKind    kind;
  PetscBool stretch; /* stretched z mesh */
  PetscReal amp;     /* DP_CELL_VARCOEF: amplitude of the x variation of the coefficient */
} DPProblem;

/* z positions of the P unknowns (vertex: nodes 0..P-1 on [0,1]; cell: centres) and of the
   P+1 cell faces (cell) */
static PetscErrorCode DPZLines(const DPProblem *pb, PetscInt P, PetscReal *zf, PetscReal *zc)
{
  PetscFunctionBegin;
  if (pb->kind == DP_VERTEX_DIRICHLET || pb->kind == DP_VERTEX_CHANNEL) {
    for (PetscInt k = 0; k < P; k++) {
      PetscReal s = (PetscReal)k / (PetscReal)(P - 1);
      zc[k]       = pb->stretch ? 0.5 * (1 - PetscCosReal(PETSC_PI * s)) * 0.6 + 0.4 * s : s;
    }
  } else {
    for (PetscInt f = 0; f <= P; f++) {
      PetscReal s = (PetscReal)f / (PetscReal)P;
      zf[f]       = pb->stretch ? 0.5 * (1 - PetscCosReal(PETSC_PI * s)) * 0.6 + 0.4 * s : s;
    }
    for (PetscInt k = 0; k < P; k++) zc[k] = 0.5 * (zf[k] + zf[k + 1]);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Assemble the operator (sign: -Lap, volume-weighted) into A = DMCreateMatrix(da). */
static PetscErrorCode DPAssemble(DM da, const DPProblem *pb, Mat A)
{
  PetscInt  M, N, P, xs, ys, zs, xm, ym, zm;
  PetscReal hx, hy, *zf, *zc;
  PetscBool chan = (PetscBool)(pb->kind == DP_VERTEX_CHANNEL), vtx = (PetscBool)(pb->kind == DP_VERTEX_DIRICHLET || chan);

  PetscFunctionBegin;
  PetscCall(DMDAGetInfo(da, NULL, &M, &N, &P, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &xs, &ys, &zs, &xm, &ym, &zm));
  hx = (vtx && !chan) ? 1.0 / (PetscReal)(M - 1) : 1.0 / (PetscReal)M; /* periodic: M intervals */
  hy = (vtx && !chan) ? 1.0 / (PetscReal)(N - 1) : 1.0 / (PetscReal)N;
  PetscCall(PetscMalloc2(P + 1, &zf, P, &zc));
  PetscCall(DPZLines(pb, P, zf, zc));
  for (PetscInt k = zs; k < zs + zm; k++)
    for (PetscInt j = ys; j < ys + ym; j++)
      for (PetscInt i = xs; i < xs + xm; i++) {
        MatStencil  row = {.k = k, .j = j, .i = i}, col[7];
        PetscScalar v[7];
        PetscInt    n = 0;

        if (vtx) {
          /* control volume hx*hy*dz of node k, couplings to the six neighbours */
          PetscReal dzm, dzp, dz, cx, cy, czm, czp;
          if (k == 0 || k == P - 1 || (!chan && (i == 0 || j == 0 || i == M - 1 || j == N - 1))) {
            /* Dirichlet node: scaled identity row, as ex45 */
            v[0]   = 2.0 * (hx * hy / (zc[1] - zc[0]) + hx * (zc[1] - zc[0]) / hy + hy * (zc[1] - zc[0]) / hx);
            col[0] = row;
            PetscCall(MatSetValuesStencil(A, 1, &row, 1, col, v, INSERT_VALUES));
            continue;
          }
          dzm    = zc[k] - zc[k - 1];
          dzp    = zc[k + 1] - zc[k];
          dz     = 0.5 * (dzm + dzp);
          cx     = hy * dz / hx;
          cy     = hx * dz / hy;
          czm    = hx * hy / dzm;
          czp    = hx * hy / dzp;
          col[n] = row, col[n].i = i - 1, v[n++] = -cx; /* i = -1 wraps on a periodic DMDA */
          col[n] = row, col[n].i = i + 1, v[n++] = -cx;
          col[n] = row, col[n].j = j - 1, v[n++] = -cy;
          col[n] = row, col[n].j = j + 1, v[n++] = -cy;
          col[n] = row, col[n].k = k - 1, v[n++] = -czm;
          col[n] = row, col[n].k = k + 1, v[n++] = -czp;
          col[n] = row, v[n++] = 2 * cx + 2 * cy + czm + czp;
        } else {
          /* cell (i,j,k): fluxes through its six faces, a missing neighbour drops the flux
             (Neumann) except on the z walls of DP_CELL_VARCOEF (Dirichlet, ghost -u) */
          PetscReal dz = zf[k + 1] - zf[k], diag = 0, a[2] = {1, 1}, c;
          if (pb->kind == DP_CELL_VARCOEF) {
            a[0] = 1 + pb->amp * PetscSinReal(PETSC_PI * (PetscReal)i * hx);       /* face i-1/2 */
            a[1] = 1 + pb->amp * PetscSinReal(PETSC_PI * (PetscReal)(i + 1) * hx); /* face i+1/2 */
          }
          for (PetscInt s = 0; s < 2; s++) {
            PetscInt ni = i + (s ? 1 : -1), nj = j + (s ? 1 : -1), nk = k + (s ? 1 : -1);
            c = a[s] * hy * dz / hx;
            if (ni >= 0 && ni < M) col[n] = row, col[n].i = ni, v[n++] = -c, diag += c;
            c = hx * dz / hy;
            if (nj >= 0 && nj < N) col[n] = row, col[n].j = nj, v[n++] = -c, diag += c;
            if (nk >= 0 && nk < P) {
              c      = hx * hy / (zc[nk] - zc[k]) * (s ? 1 : -1);
              col[n] = row, col[n].k = nk, v[n++] = -c, diag += c;
            } else if (pb->kind == DP_CELL_VARCOEF) diag += 2 * hx * hy / dz; /* wall half a cell away */
          }
          col[n] = row, v[n++] = diag;
        }
        PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(zf, zc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The DMDA of a problem: stencil width 1, star (or box), periodic in x and y for the channel. */
static PetscErrorCode DPCreateDMDA(MPI_Comm comm, const DPProblem *pb, PetscInt M, PetscInt N, PetscInt P, DMDAStencilType st, DM *da)
{
  DMBoundaryType bxy = pb->kind == DP_VERTEX_CHANNEL ? DM_BOUNDARY_PERIODIC : DM_BOUNDARY_NONE;

  PetscFunctionBegin;
  PetscCall(DMDACreate3d(comm, bxy, bxy, DM_BOUNDARY_NONE, st, M, N, P, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, da));
  PetscCall(DMSetFromOptions(*da));
  PetscCall(DMSetUp(*da));
  PetscFunctionReturn(PETSC_SUCCESS);
}
