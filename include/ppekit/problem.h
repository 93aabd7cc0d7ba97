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
  PPE_PROBLEM_BICGSTAB_PAPER
} PPEProblemType;
PETSC_EXTERN const char *const PPEProblemTypes[];
PETSC_EXTERN const char *const PPEProblemNames[];

PETSC_EXTERN PetscErrorCode PPEProblemSetGridDefaults(PPEProblemType, PPEGrid);
PETSC_EXTERN PetscErrorCode PPEProblemComputeRHS(PPEProblemType, PPEGrid, Vec, Vec, PetscBool *);
