/*
   Named test problems on a PPEGrid, as ppe-solve builds them.

   PPE_PROBLEM_MMS            manufactured solution u = prod_d cos(k_d (x_d - o_d) + phi_d)
                              for any BC combination, location and stretching, with
                              non-homogeneous Dirichlet and Neumann data; exact solution known.
   PPE_PROBLEM_CHANNEL        wall-bounded channel: x,y periodic, Neumann walls in z,
                              tanh-stretched z, cell-centred; a smooth pressure with zero
                              normal derivative at the walls is the exact solution.
   PPE_PROBLEM_BICGSTAB_PAPER the test problem of Pennati et al. (2025), sec. IV (the
                              Bi-CGSTAB/Chebyshev paper): -Lap u = sin x + cos y + 3 sin z - 2yz + 2 on
                              [3,28.5]x[2.5,28]x[10,35.5], vertex-centred, Dirichlet on x-,y+,z+,
                              Neumann on x+,y-,z- (homogeneous data); exact solution unknown.
   PPE_PROBLEM_MMS_VAR        variable density: -div(beta grad u) = f, beta = 1/rho, with a smooth
                              rho (ratio 3) and a manufactured u, any BCs (default: periodic, Dirichlet
                              walls at the ends of the last direction, with the boundary data carrying
                              the operator's boundary coefficient); exact solution known.
   PPE_PROBLEM_BUBBLES        multiphase pressure: spheres (discs in 2D) of density 1 in density
                              -ppe_density_ratio, x,y periodic, Neumann walls, cell-centred; b the
                              divergence of a random face velocity (consistent); no exact solution.

   References:
     L. Pennati, M. I. Andersson, K. Steiniger, R. Widera, T. Narwal, M. Bussmann and
     S. Markidis, "A Parallel and Highly-Portable HPC Poisson Solver: Preconditioned
     Bi-CGSTAB with alpaka", arXiv:2503.08935, 2025.
*/
#pragma once

#include <ppekit/grid.h>

typedef enum {
  PPE_PROBLEM_MMS,
  PPE_PROBLEM_CHANNEL,
  PPE_PROBLEM_BICGSTAB_PAPER,
  PPE_PROBLEM_MMS_VAR,
  PPE_PROBLEM_BUBBLES
} PPEProblemType;
#define PPE_PROBLEM_COUNT 5
PETSC_EXTERN const char *const PPEProblemTypes[];
PETSC_EXTERN const char *const PPEProblemNames[];

PETSC_EXTERN PetscErrorCode PPEProblemSetGridDefaults(PPEProblemType, PPEGrid);
PETSC_EXTERN PetscErrorCode PPEProblemComputeRHS(PPEProblemType, PPEGrid, Vec, Vec, PetscBool *);
PETSC_EXTERN PetscErrorCode PPEProblemHasDensity(PPEProblemType, PetscBool *);
PETSC_EXTERN PetscErrorCode PPEProblemComputeDensity(PPEProblemType, PPEGrid, PetscInt, Vec);

/* The settings of problem bubbles (PPEProblemGetBubbles(): -ppe_density_ratio, -ppe_bubbles*) */
typedef struct {
  PetscInt  n;        /* number of bubbles */
  PetscReal ratio;    /* liquid density over bubble density (bubbles: 1) */
  PetscReal radius;   /* a fraction of the smallest length of the box */
  PetscInt  seed;     /* of the positions and of the right-hand side's velocity */
  PetscBool move;     /* the bubbles move from step to step */
  PetscReal velocity; /* displacement of one step along x, a fraction of the length (y: half) */
  PetscInt  step;     /* the first step */
} PPEBubbles;
PETSC_EXTERN PetscErrorCode PPEProblemGetBubbles(PPEGrid, PPEBubbles *);
